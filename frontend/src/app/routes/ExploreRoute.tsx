import { useInfiniteQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { Link } from "react-router";
import { DataTable, useSortedRows, useUrlSort } from "../../components/DataTable";
import { ShareBar } from "../../components/ShareBar";
import { Empty, QueryView } from "../../components/Status";
import { DrawLater } from "../../components/WhenVisible";
import { seriesPagesQuery } from "../../features/explore/api";
import { SeriesCharts } from "../../features/explore/components/SeriesCharts";
import { type MeasuredSeries, seriesColumns } from "../../features/explore/components/seriesColumns";
import { buildBarCharts } from "../../features/explore/lib/barCharts";
import { EXPLORE_PAGE } from "../../features/explore/page";
import { FacetPanel } from "../../features/filters/components/FacetPanel";
import { filtersRecord, historyHref } from "../../lib/filters";
import { useFilters } from "../../lib/useFilters";
import { useNarrow } from "../../lib/useMediaQuery";

function useSelection() {
  const [selected, setSelected] = useState<MeasuredSeries["id"][]>([]);
  return useMemo(
    () => ({
      selected,
      isSelected: (id: MeasuredSeries["id"]) => selected.includes(id),
      toggle: (id: MeasuredSeries["id"]) =>
        setSelected((prev) => (prev.includes(id) ? prev.filter((x) => x !== id) : [...prev, id])),
    }),
    [selected],
  );
}

export function ExploreRoute() {
  const [filters, setFilters] = useFilters();
  const narrow = useNarrow();
  const series = useInfiniteQuery(seriesPagesQuery(filters));
  const loaded = useMemo(() => series.data?.pages.flatMap((page) => page.items), [series.data]);
  const selection = useSelection();
  const columns = useMemo(() => seriesColumns(selection), [selection]);
  const [sort, toggleSort] = useUrlSort("benchmark");
  const measured = useMemo(
    () => (loaded ?? []).filter((s): s is MeasuredSeries => s.latest !== null),
    [loaded],
  );
  const rows = useSortedRows(measured, columns, sort);
  const charts = useMemo(() => buildBarCharts(measured), [measured]);
  return (
    <>
      <div className="page-head">
        <h1>Explore</h1>
        <ShareBar view="explore" columns={columns} rows={rows} filters={filtersRecord(filters)} />
      </div>
      <div className="with-filters">
        <FacetPanel filters={filters} onChange={setFilters} collapsed={narrow} />
        <section aria-label="Results" aria-busy={series.isFetching}>
          <QueryView query={{ data: loaded, error: series.error, isPending: series.isPending }} what="series">
            {() =>
              rows.length === 0 ? (
                <Empty>No series match these filters. Clear a filter to see more.</Empty>
              ) : (
                <>
                  <p className="muted">
                    {rows.length.toLocaleString("en-US")} series in {charts.length.toLocaleString("en-US")}{" "}
                    charts, one per benchmark and metric
                    {series.hasNextPage ? ", the first of those matching" : ""}. Each bar is the latest value
                    of one series, whiskers its min–max; click a bar for its history, or follow its row's
                    history link in the table. <a href="#series-table">Jump to the table</a>
                  </p>
                  <SeriesCharts charts={charts} />
                  {series.hasNextPage ? (
                    <div className="actions">
                      <button
                        type="button"
                        onClick={() => series.fetchNextPage()}
                        disabled={series.isFetchingNextPage}
                      >
                        {series.isFetchingNextPage ? "Loading…" : `Load ${EXPLORE_PAGE} more series`}
                      </button>
                    </div>
                  ) : null}
                  <div className="actions">
                    {selection.selected.length ? (
                      <Link to={historyHref(selection.selected)}>
                        Plot the history of {selection.selected.length} selected series
                      </Link>
                    ) : (
                      <span className="muted">
                        Tick series in the Plot column to compare their histories.
                      </span>
                    )}
                  </div>
                  <div id="series-table" />
                  {/* Below the charts: their first screen is drawn before the table's rows are laid out. */}
                  <DrawLater>
                    <DataTable
                      caption="Series matching the filters, latest value each"
                      columns={columns}
                      rows={rows}
                      rowKey={(s) => String(s.id)}
                      sort={sort}
                      onSort={toggleSort}
                    />
                  </DrawLater>
                </>
              )
            }
          </QueryView>
        </section>
      </div>
    </>
  );
}
