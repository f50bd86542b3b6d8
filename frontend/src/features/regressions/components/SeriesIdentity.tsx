import { Link } from "react-router";
import type { Regression } from "../../../api/types";
import { historyHref } from "../../../lib/filters";
import { implementationLabel, workloadLabel } from "../../../lib/identity";

/** The series a change was found in, linked to its history chart. */
export function SeriesIdentity({ series }: { series: Regression["series"] }) {
  return (
    <span className="series-identity">
      <Link to={historyHref([series.id])}>{workloadLabel(series.benchmark, series.params)}</Link>
      <span className="muted">
        {" "}
        {[series.suite, implementationLabel(series), series.metric, series.hardware].join(" · ")}
      </span>
    </span>
  );
}
