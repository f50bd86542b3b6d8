import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "react-router";
import type { Regression, RegressionContext } from "../../../api/types";
import { ChartFigure } from "../../../components/charts/ChartFigure";
import { ChartTable } from "../../../components/charts/ChartTable";
import { HistoryChart } from "../../../components/charts/HistoryChart";
import { StripChart } from "../../../components/charts/StripChart";
import { QueryView } from "../../../components/Status";
import { compareHref, runHref } from "../../../lib/links";
import { formatDateTime } from "../../../lib/time";
import { directionText, type Scale } from "../../../lib/units";
import { regressionContextQuery } from "../api";
import { changeHistory, changeScale, changeStrips, type Outliers } from "../lib/changeChart";
import { formatSize } from "../lib/wording";

/** Where the change's runs came from: the commits on each side and a comparison of the two runs. */
function CommitRange({
  regression,
  previousRunId,
  before,
  after,
}: {
  regression: Regression;
  previousRunId: string | null;
  before: string | null;
  after: string | null;
}) {
  return (
    <dl className="commit-range">
      <dt>Commits</dt>
      <dd>
        {before || after ? (
          <>
            <code>{before?.slice(0, 12) ?? "unknown"}</code> → <code>{after?.slice(0, 12) ?? "unknown"}</code>
          </>
        ) : (
          <span className="muted">The runs record no commits.</span>
        )}
      </dd>
      <dt>Runs</dt>
      <dd>
        {previousRunId ? (
          <>
            <Link to={runHref(previousRunId)}>last before</Link> →{" "}
            <Link to={runHref(regression.run_id)}>found at</Link> ·{" "}
            <Link to={compareHref(previousRunId, regression.run_id)}>Compare with the previous run</Link>
          </>
        ) : (
          <span className="muted">No earlier run of this series.</span>
        )}
      </dd>
    </dl>
  );
}

/**
 * Both charts' runs as a table: each run's side (and whether it is a marked outlier, drawn hollow),
 * time, level and replicates, linking to the run.
 */
function ChangeRunsTable({
  context,
  scale,
  outliers,
}: {
  context: RegressionContext;
  scale: Scale;
  outliers?: Outliers;
}) {
  const sides = [
    ["before", context.before],
    ["after", context.after],
  ] as const;
  return (
    <ChartTable
      summary="The runs as a table"
      caption={`Runs before and from the change on, with each run's level (${scale.label})`}
      columns={["Run", "Side", "Started", "Level", "Replicates"]}
      rows={sides.flatMap(([side, points]) =>
        points.map((p) => ({
          key: p.run_id,
          cells: [
            <Link key="run" to={runHref(p.run_id)}>
              {p.run_id.slice(0, 8)}
            </Link>,
            outliers?.has(p.run_id) ? `${side}, marked outlier` : side,
            formatDateTime(p.started_at),
            scale.format(scale.toDisplay(p.value_base), 4),
            String(p.samples_base?.length ?? 0),
          ],
        })),
      )}
    />
  );
}

/**
 * The change drawn: the series' runs around it with the change marked, and the spread of run
 * levels (and replicates) before and after it. Runs in `outliers` (a maintainer's marks) are
 * drawn hollow, as on the History chart; the server leaves them out of each side's box.
 */
export function ChangeContext({ regression, outliers }: { regression: Regression; outliers?: Outliers }) {
  const context = useQuery(regressionContextQuery(regression.id));
  const navigate = useNavigate();
  return (
    <section aria-label="The change drawn">
      <h2>Around the change</h2>
      <QueryView query={context} what="the runs around the change">
        {(c) => {
          const scale = changeScale(c, regression);
          const history = changeHistory(c, regression, scale, outliers);
          const strips = changeStrips(c, scale, outliers);
          const direction = directionText(regression.series.direction);
          return (
            <>
              <CommitRange
                regression={regression}
                previousRunId={c.previous_run_id}
                before={c.commit_before}
                after={c.commit_after}
              />
              <div className="change-charts">
                <ChartFigure
                  title="History around the change"
                  subtitle={`(${scale.label}; ${direction}; ${c.before.length} runs before, ${c.after.length} from the change on)`}
                  label={`Time chart of ${regression.series.metric} around the change: ${c.before.length} runs before and ${c.after.length} after, the change marked.`}
                >
                  <HistoryChart
                    chart={history}
                    markers={[
                      {
                        time: regression.started_at,
                        label: formatSize(regression),
                        kind: regression.direction,
                      },
                    ]}
                    onSelectRun={(runId) => navigate(runHref(runId))}
                    height={300}
                  />
                </ChartFigure>
                <ChartFigure
                  title="Before and after"
                  subtitle={`(${scale.label}; box: quartiles and median of run levels; small dots: replicates${
                    strips.some((side) => side.levels.some((l) => l.outlier))
                      ? "; hollow: marked outliers, left out of the box"
                      : ""
                  })`}
                  label={`Strip chart of run levels before (${strips[0].count} runs) and after (${strips[1].count} runs) the change, with boxes of quartiles and medians.`}
                >
                  <StripChart
                    strips={strips}
                    unit={scale.label}
                    format={scale.format}
                    onSelectRun={(runId) => navigate(runHref(runId))}
                  />
                </ChartFigure>
              </div>
              <ChangeRunsTable context={c} scale={scale} outliers={outliers} />
            </>
          );
        }}
      </QueryView>
    </section>
  );
}
