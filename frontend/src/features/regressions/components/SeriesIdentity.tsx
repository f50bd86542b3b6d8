import { Link } from "react-router";
import type { Regression } from "../../../api/types";
import { historyHref } from "../../../lib/filters";
import { implementationLabel, workloadLabel } from "../../../lib/identity";

/**
 * The series a change was found in, linked to its history chart; unlinked inside a <summary>,
 * which is itself a control (a link in it is a control nested in a control).
 */
export function SeriesIdentity({
  series,
  linked = true,
}: {
  series: Regression["series"];
  linked?: boolean;
}) {
  const workload = workloadLabel(series.benchmark, series.params);
  return (
    <span className="series-identity">
      {linked ? <Link to={historyHref([series.id])}>{workload}</Link> : workload}
      <span className="muted">
        {" "}
        {[series.suite, implementationLabel(series), series.metric, series.hardware].join(" · ")}
      </span>
    </span>
  );
}
