import { useInfiniteQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { DataTable, useSortedRows, useUrlSort } from "../../components/DataTable";
import { EmbedButton } from "../../components/EmbedButton";
import { ShareBar } from "../../components/ShareBar";
import { Empty, QueryView } from "../../components/Status";
import { FacetPanel } from "../../features/filters/components/FacetPanel";
import { modePairsQuery } from "../../features/modes/api";
import { MethodNote } from "../../features/modes/components/MethodNote";
import { modeColumns } from "../../features/modes/components/modeColumns";
import { RatioSections } from "../../features/modes/components/RatioSections";
import { allRatioRows, buildRatioSections } from "../../features/modes/lib/ratioRows";
import { modesChartPath } from "../../lib/embed";
import { filtersRecord, writeFilters } from "../../lib/filters";
import { useFilters } from "../../lib/useFilters";
import { useNarrow } from "../../lib/useMediaQuery";

export function ModesRoute() {
  const [filters, setFilters] = useFilters();
  const narrow = useNarrow();
  const pairs = useInfiniteQuery(modePairsQuery(filters));
  const loaded = useMemo(() => pairs.data?.pages.flatMap((page) => page.items), [pairs.data]);
  const sections = buildRatioSections(loaded ?? []);
  const [sort, toggleSort] = useUrlSort("language");
  const rows = useSortedRows(allRatioRows(sections), modeColumns, sort);
  return (
    <>
      <div className="page-head">
        <h1>Sync vs async</h1>
        <ShareBar view="sync-vs-async" columns={modeColumns} rows={rows} filters={filtersRecord(filters)} />
        <EmbedButton
          what={{
            image: modesChartPath(filters),
            alt: "async / sync of each workload measured both ways",
            link: `/modes?${writeFilters(filters)}`,
          }}
        />
      </div>
      <div className="with-filters">
        <FacetPanel filters={filters} onChange={setFilters} hide={["mode"]} collapsed={narrow} />
        <section aria-label="Sync versus async" aria-busy={pairs.isFetching}>
          <p className="muted">
            Every workload measured both ways: the async value over the sync value of the same suite,
            hardware, benchmark, params, language, implementation and metric.
          </p>
          <MethodNote />
          <QueryView
            query={{ data: loaded, error: pairs.error, isPending: pairs.isPending }}
            what="sync/async pairs"
          >
            {() =>
              rows.length === 0 ? (
                <Empty>No workload under these filters has both a sync and an async result.</Empty>
              ) : (
                <>
                  <RatioSections sections={sections} />
                  {pairs.hasNextPage ? (
                    <div className="actions">
                      <button
                        type="button"
                        onClick={() => pairs.fetchNextPage()}
                        disabled={pairs.isFetchingNextPage}
                      >
                        {pairs.isFetchingNextPage ? "Loading…" : "Load more pairs"}
                      </button>
                    </div>
                  ) : null}
                  <h2>All pairs</h2>
                  <DataTable
                    caption="Async over sync for every pair"
                    columns={modeColumns}
                    rows={rows}
                    rowKey={(r) => r.key}
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
