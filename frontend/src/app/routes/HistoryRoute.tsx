import { useQueries } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router";
import { DataTable, useSortedRows, useUrlSort } from "../../components/DataTable";
import { ShareBar } from "../../components/ShareBar";
import { Empty, ErrorMessage, Loading } from "../../components/Status";
import { seriesAnnotationsQuery } from "../../features/annotations/api";
import { AnnotationForm } from "../../features/annotations/components/AnnotationForm";
import { historyQuery } from "../../features/history/api";
import { HistoryCharts } from "../../features/history/components/HistoryCharts";
import { type PointRow, pointColumns } from "../../features/history/components/pointColumns";
import { buildHistoryCharts, type HistoryLike } from "../../features/history/lib/historyChart";
import { seriesRegressionsQuery } from "../../features/regressions/api";
import { ChartNotes } from "../../features/regressions/components/ChartNotes";
import { buildChartNotes } from "../../features/regressions/lib/markers";

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function useHistoryParams() {
  const [params, setParams] = useSearchParams();
  const ids = [...new Set(params.getAll("series"))].filter((id) => /^\d+$/.test(id));
  const since = DATE.test(params.get("since") ?? "") ? (params.get("since") as string) : "";
  const until = DATE.test(params.get("until") ?? "") ? (params.get("until") as string) : "";
  const update = (change: (p: URLSearchParams) => void) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      change(next);
      return next;
    });
  return { ids, since, until, update };
}

export function HistoryRoute() {
  const { ids, since, until, update } = useHistoryParams();
  const range = {
    since: since ? `${since}T00:00:00Z` : undefined,
    until: until ? `${until}T23:59:59.999Z` : undefined,
  };
  const histories = useQueries({ queries: ids.map((id) => historyQuery(Number(id), range)) });
  const loaded = histories.flatMap((h) => (h.data ? [h.data as HistoryLike] : []));
  const charts = buildHistoryCharts(loaded);
  const points: PointRow[] = charts.flatMap((chart) =>
    chart.lines.flatMap((line) =>
      line.points.map((point) => ({ line, point, format: chart.scale.format, unit: chart.scale.label })),
    ),
  );
  const regressions = useQueries({ queries: ids.map((id) => seriesRegressionsQuery(Number(id))) });
  const annotations = useQueries({ queries: ids.map((id) => seriesAnnotationsQuery(Number(id))) });
  const notes = buildChartNotes(
    regressions.flatMap((q) => q.data?.items ?? []),
    annotations.flatMap((q) => q.data?.items ?? []),
    ids.length > 1 ? { seriesLabel: (id) => `#${id}` } : {},
  );
  const [sort, toggleSort] = useUrlSort("time", "desc");
  const rows = useSortedRows(points, pointColumns, sort);
  const remove = (id: string) =>
    update((p) => {
      p.delete("series");
      for (const other of ids) if (other !== id) p.append("series", other);
    });
  const error = histories.find((h) => h.error)?.error;
  return (
    <>
      <div className="page-head">
        <h1>History</h1>
        <ShareBar view="history" columns={pointColumns} rows={rows} filters={{ series: ids, since, until }} />
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
                onChange={(e) =>
                  update((p) => (e.target.value ? p.set("since", e.target.value) : p.delete("since")))
                }
              />
            </label>
            <label>
              To{" "}
              <input
                type="date"
                value={until}
                onChange={(e) =>
                  update((p) => (e.target.value ? p.set("until", e.target.value) : p.delete("until")))
                }
              />
            </label>
            {loaded.map((h) => (
              <span className="chip" key={h.series.id}>
                #{h.series.id} {h.series.language} {h.series.benchmark} {h.series.metric}
                <button
                  type="button"
                  aria-label={`Remove series ${h.series.id}`}
                  onClick={() => remove(String(h.series.id))}
                >
                  ×
                </button>
              </span>
            ))}
          </div>
          {error ? <ErrorMessage error={error} /> : null}
          {histories.some((h) => h.isPending) ? <Loading what="history" /> : null}
          <HistoryCharts charts={charts} markers={notes} />
          <ChartNotes notes={notes} />
          {loaded.length ? (
            <AnnotationForm
              series={loaded.map((h) => ({
                id: Number(h.series.id),
                label: `#${h.series.id} ${h.series.language} ${h.series.benchmark} ${h.series.metric}`,
              }))}
            />
          ) : null}
          {rows.length ? (
            <DataTable
              caption="Points drawn above; each links to its run"
              initialRows={100}
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
