import { useQueries } from "@tanstack/react-query";
import { Link } from "react-router";
import { DataTable, useSortedRows, useUrlSort } from "../../components/DataTable";
import { EmbedButton } from "../../components/EmbedButton";
import { ShareBar } from "../../components/ShareBar";
import { Empty, ErrorMessage, Loading } from "../../components/Status";
import { seriesAnnotationsQuery } from "../../features/annotations/api";
import { AnnotationForm } from "../../features/annotations/components/AnnotationForm";
import { historyQuery, seriesCurationQuery } from "../../features/history/api";
import { CurationPanel } from "../../features/history/components/CurationPanel";
import { HistoryCharts } from "../../features/history/components/HistoryCharts";
import { pointColumns } from "../../features/history/components/pointColumns";
import { buildHistoryCharts, pointRows } from "../../features/history/lib/historyChart";
import { seriesDetectionQuery, seriesRegressionsQuery } from "../../features/regressions/api";
import { ChartNotes } from "../../features/regressions/components/ChartNotes";
import { DetectionStates } from "../../features/regressions/components/DetectionStates";
import { buildChartNotes } from "../../features/regressions/lib/markers";
import { seriesChartPath } from "../../lib/embed";
import { dateRangeQuery, historyHref } from "../../lib/filters";
import { seriesChoiceLabel } from "../../lib/identity";
import { useHistoryFilters } from "../../lib/useFilters";

export function HistoryRoute() {
  const [filters, setFilters] = useHistoryFilters();
  const { series: ids, since, until } = filters;
  const range = dateRangeQuery(filters);
  const histories = useQueries({ queries: ids.map((id) => historyQuery(id, range)) });
  const loaded = histories.flatMap((h) => (h.data ? [h.data] : []));
  const curations = useQueries({ queries: ids.map((id) => seriesCurationQuery(id)) });
  const outliers = new Map(
    curations.flatMap((q) => (q.data ? [[q.data.series_id, new Set(q.data.outliers)] as const] : [])),
  );
  const charts = buildHistoryCharts(loaded, outliers);
  const points = pointRows(charts);
  const regressions = useQueries({ queries: ids.map((id) => seriesRegressionsQuery(id)) });
  const annotations = useQueries({ queries: ids.map((id) => seriesAnnotationsQuery(id)) });
  const detection = useQueries({ queries: ids.map((id) => seriesDetectionQuery(id)) });
  const notes = buildChartNotes(
    regressions.flatMap((q) => q.data?.items ?? []),
    annotations.flatMap((q) => q.data?.items ?? []),
    ids.length > 1 ? { seriesLabel: (id) => `#${id}` } : {},
  );
  const [sort, toggleSort] = useUrlSort("time", "desc");
  const rows = useSortedRows(points, pointColumns, sort);
  const remove = (id: number) => setFilters({ ...filters, series: ids.filter((other) => other !== id) });
  const error = histories.find((h) => h.error)?.error;
  return (
    <>
      <div className="page-head">
        <h1>History</h1>
        <ShareBar
          view="history"
          columns={pointColumns}
          rows={rows}
          filters={{ series: ids.map(String), since, until }}
        />
      </div>
      {ids.length === 0 ? (
        <Empty>
          No series chosen. Pick series on <Link to="/explore">Explore</Link> (click a bar, or tick rows and
          plot them).
        </Empty>
      ) : (
        <>
          <div className="actions">
            <label>
              From{" "}
              <input
                type="date"
                value={since}
                onChange={(e) => setFilters({ ...filters, since: e.target.value })}
              />
            </label>
            <label>
              To{" "}
              <input
                type="date"
                value={until}
                onChange={(e) => setFilters({ ...filters, until: e.target.value })}
              />
            </label>
            {loaded.map((h) => (
              <span className="chip" key={h.series.id}>
                {seriesChoiceLabel(h.series)}
                <button
                  type="button"
                  aria-label={`Remove series ${h.series.id}`}
                  onClick={() => remove(h.series.id)}
                >
                  ×
                </button>
              </span>
            ))}
          </div>
          {error ? <ErrorMessage error={error} /> : null}
          {histories.some((h) => h.isPending) ? <Loading what="history" /> : null}
          <HistoryCharts charts={charts} markers={notes} />
          <div className="actions">
            {loaded.map((h) => (
              <EmbedButton
                key={h.series.id}
                label={`Embed #${h.series.id}`}
                what={{
                  image: seriesChartPath(h.series.id, { since, until }),
                  alt: `${h.series.suite}: ${h.series.benchmark} ${h.series.metric} (${h.series.unit}) on ${h.series.hardware}`,
                  link: historyHref([h.series.id]),
                }}
              />
            ))}
          </div>
          <ChartNotes notes={notes} />
          <DetectionStates
            states={detection.flatMap((q) => (q.data ? [q.data] : []))}
            {...(ids.length > 1 ? { seriesLabel: (id: number) => `#${id}` } : {})}
          />
          {loaded.length ? (
            <AnnotationForm
              series={loaded.map((h) => ({
                id: h.series.id,
                label: seriesChoiceLabel(h.series),
              }))}
            />
          ) : null}
          {loaded.map((h) => (
            <CurationPanel key={h.series.id} history={h} />
          ))}
          {rows.length ? (
            <DataTable
              caption="Points drawn above; each links to its run"
              columns={pointColumns}
              rows={rows}
              rowKey={(r) => `${r.line.key}:${r.point.t}:${r.point.runId}`}
              sort={sort}
              onSort={toggleSort}
            />
          ) : null}
        </>
      )}
    </>
  );
}
