import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "react-router";
import { useOldSortLinks, useSortedRows, useUrlSort } from "../../components/DataTable";
import { ShareBar } from "../../components/ShareBar";
import { QueryView } from "../../components/Status";
import { compareRunsQuery } from "../../features/compare-runs/api";
import { ComparisonView } from "../../features/compare-runs/components/ComparisonView";
import {
  type CompareTable,
  compareTables,
  matchedColumns,
} from "../../features/compare-runs/components/comparisonColumns";
import { RunPicker } from "../../features/compare-runs/components/RunPicker";
import { runsQuery } from "../../features/runs/api";

export function CompareRoute() {
  const [params, setParams] = useSearchParams();
  const baseline = params.get("baseline") ?? "";
  const contender = params.get("contender") ?? "";
  const runs = useQuery(runsQuery({}));
  const comparison = useQuery({
    ...compareRunsQuery(baseline, contender),
    enabled: Boolean(baseline && contender),
  });
  useOldSortLinks(compareTables);
  const [sort, toggleSort] = useUrlSort("change", "desc", "shared" satisfies CompareTable);
  const rows = useSortedRows(comparison.data?.matched ?? [], matchedColumns, sort);
  return (
    <>
      <div className="page-head">
        <h1>Compare runs</h1>
        <ShareBar
          view="compare-runs"
          columns={matchedColumns}
          rows={rows}
          filters={{ baseline, contender }}
        />
      </div>
      {runs.data ? (
        <RunPicker
          key={`${baseline}:${contender}`}
          runs={runs.data}
          baseline={baseline}
          contender={contender}
          onPick={(b, c) => setParams({ baseline: b, contender: c })}
        />
      ) : null}
      {baseline && contender ? (
        <QueryView query={comparison} what="comparison">
          {(data) => <ComparisonView comparison={data} rows={rows} sort={sort} onSort={toggleSort} />}
        </QueryView>
      ) : (
        <p className="muted">
          Choose a baseline and a contender run, or open a run and compare it with its previous run.
        </p>
      )}
    </>
  );
}
