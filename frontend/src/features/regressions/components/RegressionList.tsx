import { Link } from "react-router";
import type { Regression } from "../../../api/types";
import { ChangeEvidence } from "./ChangeEvidence";
import { ChangeSummary } from "./ChangeSummary";
import { LinkList } from "./LinkList";
import { SeriesIdentity } from "./SeriesIdentity";
import { StatusBadge } from "./StatusBadge";

/** Detected changes as the service orders them (newest first), one item each. */
export function RegressionList({ items }: { items: readonly Regression[] }) {
  return (
    <ol className="regression-list" aria-label="Detected changes, newest first">
      {items.map((r) => (
        <li key={r.id} className={`regression regression-${r.direction}`} data-regression={r.id}>
          <div className="regression-change">
            <ChangeSummary change={r} />
          </div>
          <div className="regression-series">
            <SeriesIdentity series={r.series} />
          </div>
          <div className="regression-triage">
            <StatusBadge status={r.status} />
            {r.note ? <p className="regression-note">{r.note}</p> : null}
            <LinkList links={r.links} />
          </div>
          <div className="regression-actions">
            <Link to={`/regressions/${r.id}`} aria-label={`Details and triage of change ${r.id}`}>
              Triage
            </Link>
          </div>
          <ChangeEvidence change={r} />
        </li>
      ))}
    </ol>
  );
}
