import type { Regression } from "../../../api/types";
import { formatDate } from "../../../lib/time";
import { directionText, formatValue } from "../../../lib/units";
import { formatConfidence, formatSize } from "../lib/wording";

/** Size (worded by direction), before → after, date and confidence of one detected change. */
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
      <br />
      <time dateTime={change.started_at}>{formatDate(change.started_at)}</time>
      <span className="muted"> · confidence {formatConfidence(change.confidence)}</span>
    </span>
  );
}
