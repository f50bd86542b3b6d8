import type { Regression } from "../../../api/types";
import { formatEvidence } from "../lib/wording";

/** What a detected change rests on, in one line; nothing for changes stored before evidence was. */
export function ChangeEvidence({ change }: { change: Regression }) {
  if (!change.evidence) return null;
  return (
    <p className="change-evidence muted" data-testid="evidence">
      Evidence: {formatEvidence(change.evidence, change.relative_change)}
    </p>
  );
}
