import type { Regression } from "../../../api/types";
import { formatDate } from "../../../lib/time";
import { directionText, formatValue } from "../../../lib/units";
import { formatConfidence, formatSize } from "../lib/wording";

/**
 * Size (worded by direction), before → after, date and confidence of one detected change, and
 * whether it still awaits a second run.
 */
export function ChangeSummary({ change }: { change: Regression }) {
  const { base_unit: unit } = change.series;
  return (
    <span className="change-summary">
      <strong className={change.direction === "regression" ? "verdict-worse" : "verdict-better"}>
        {formatSize(change)}
      </strong>{" "}
      <span className="muted">
        {formatValue(change.before_base, unit)} → {formatValue(change.after_base, unit)} (
        {directionText(change.series.direction)})
      </span>
      {change.provisional ? (
        <>
          {" "}
          <span
            className="badge badge-provisional"
            data-testid="provisional"
            title="Found on one run after the change, from its replicates: the next run confirms or retracts it"
          >
            provisional – awaiting a second run
          </span>
        </>
      ) : null}
      <br />
      <time dateTime={change.started_at}>{formatDate(change.started_at)}</time>
      <span className="muted"> · confidence {formatConfidence(change.confidence)}</span>
    </span>
  );
}
