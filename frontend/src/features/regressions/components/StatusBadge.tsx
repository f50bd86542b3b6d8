import type { RegressionStatus } from "../../../api/types";
import { STATUS_TEXT } from "../lib/wording";

/** A triage status as a labelled badge; its meaning on hover. */
export function StatusBadge({ status }: { status: RegressionStatus }) {
  return (
    <span className={`badge badge-${status}`} title={STATUS_TEXT[status]} data-status={status}>
      {status}
    </span>
  );
}
