import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import type { Regression } from "../../api/types";
import { QueryView } from "../../components/Status";
import { seriesCurationQuery } from "../../features/history/api";
import { regressionQuery } from "../../features/regressions/api";
import { AuditTrail } from "../../features/regressions/components/AuditTrail";
import { ChangeContext } from "../../features/regressions/components/ChangeContext";
import { ChangeEvidence } from "../../features/regressions/components/ChangeEvidence";
import { ChangePending } from "../../features/regressions/components/ChangePending";
import { ChangeSummary } from "../../features/regressions/components/ChangeSummary";
import { GroupMoveForm } from "../../features/regressions/components/GroupMoveForm";
import { LinkList } from "../../features/regressions/components/LinkList";
import { SeriesIdentity } from "../../features/regressions/components/SeriesIdentity";
import { StatusBadge } from "../../features/regressions/components/StatusBadge";
import { TriageForm } from "../../features/regressions/components/TriageForm";
import { runHref } from "../../lib/links";

/** The change's charts, with the runs a maintainer marked outliers in its series drawn hollow. */
function ChangeCharts({ regression }: { regression: Regression }) {
  const curation = useQuery(seriesCurationQuery(regression.series.id));
  const outliers = new Set(curation.data?.outliers);
  return <ChangeContext regression={regression} outliers={outliers} />;
}

export function RegressionRoute() {
  const id = Number(useParams().regressionId);
  const regression = useQuery({ ...regressionQuery(id), enabled: Number.isInteger(id) && id > 0 });
  return (
    <>
      <p>
        <Link to="/regressions">← Regressions</Link>
      </p>
      <QueryView query={regression} what="the change">
        {(r) => (
          <>
            <h1>
              {r.direction === "regression" ? "Regression" : "Improvement"} #{r.id}{" "}
              <StatusBadge status={r.status} />
            </h1>
            <ChangePending seriesId={r.series.id} />
            <div className="meta-grid">
              <section>
                <h2>Change</h2>
                <ChangeSummary change={r} />
                <ChangeEvidence change={r} />
                <p>
                  Found at run <Link to={runHref(r.run_id)}>{r.run_id}</Link>
                </p>
              </section>
              <section>
                <h2>Series</h2>
                <SeriesIdentity series={r.series} />
              </section>
              <section>
                <h2>What maintainers said</h2>
                {r.note ? <p className="regression-note">{r.note}</p> : <p className="muted">No note yet.</p>}
                <LinkList links={r.links} />
              </section>
            </div>
            <ChangeCharts regression={r} />
            <TriageForm regression={r} />
            <GroupMoveForm regression={r} />
            <AuditTrail regressionId={r.id} />
          </>
        )}
      </QueryView>
    </>
  );
}
