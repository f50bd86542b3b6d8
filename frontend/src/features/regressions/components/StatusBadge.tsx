import { STATUSES } from "../lib/wording";

/** A triage status as a labelled badge; its meaning on hover. */
export function StatusBadge({ status }: { status: string }) {
  const meaning = STATUSES.find((s) => s.value === status)?.text;
  return (
    <span className={`badge badge-${status}`} title={meaning} data-status={status}>
      {status}
    </span>
  );
}
