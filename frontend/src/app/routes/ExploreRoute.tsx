import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { DataTable, useSortedRows, useUrlSort } from "../../components/DataTable";
import { ShareBar } from "../../components/ShareBar";
import { Empty, QueryView } from "../../components/Status";
import { seriesQuery } from "../../features/explore/api";
import { SeriesCharts } from "../../features/explore/components/SeriesCharts";
import { type MeasuredSeries, seriesColumns } from "../../features/explore/components/seriesColumns";
import { buildBarCharts } from "../../features/explore/lib/barCharts";
import { FacetPanel } from "../../features/filters/components/FacetPanel";
import { filtersRecord, historyHref } from "../../lib/filters";
import { useFilters } from "../../lib/useFilters";
import { useNarrow } from "../../lib/useMediaQuery";

function useSelection() {
  const [selected, setSelected] = useState<MeasuredSeries["id"][]>([]);
  return {
    selected,
    isSelected: (id: MeasuredSeries["id"]) => selected.includes(id),
    toggle: (id: MeasuredSeries["id"]) =>
      setSelected((prev) => (prev.includes(id) ? prev.filter((x) => x !== id) : [...prev, id])),
  };
}

export function ExploreRoute() {
  const [filters, setFilters] = useFilters();
  const narrow = useNarrow();
  const series = useQuery(seriesQuery(filters));
  const selection = useSelection();
  const columns = seriesColumns(selection);
  const [sort, toggleSort] = useUrlSort("benchmark");
  const measured = (series.data ?? []).filter((s): s is MeasuredSeries => s.latest !== null);
  const rows = useSortedRows(measured, columns, sort);
  return (
    <>
      <div className="page-head">
        <h1>Explore</h1>
        <ShareBar view="explore" columns={columns} rows={rows} filters={filtersRecord(filters)} />
      </div>
      <div className="with-filters">
        <FacetPanel filters={filters} onChange={setFilters} collapsed={narrow} />
        <section aria-label="Results" aria-busy={series.isFetching}>
          <QueryView query={series} what="series">
            {() =>
              rows.length === 0 ? (
                <Empty>No series match these filters. Clear a filter to see more.</Empty>
              ) : (
                <>
                  <p className="muted">
                    {rows.length} series. Each bar is the latest value of one series; click a bar for its
                    history.
                  </p>
                  <SeriesCharts charts={buildBarCharts(rows)} />
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
                  <DataTable
                    caption="Series matching the filters, latest value each"
                    columns={columns}
                    rows={rows}
                    rowKey={(s) => String(s.id)}
                    sort={sort}
                    onSort={toggleSort}
                  />
                </>
              )
            }
          </QueryView>
        </section>
      </div>
    </>
  );
}
