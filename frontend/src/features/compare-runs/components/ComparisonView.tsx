import { Link } from "react-router";
import type { MatchedResult, RunComparison, RunSummary, UnmatchedResult } from "../../../api/types";
import { DataTable, type SortState, useSortedRows, useUrlSort } from "../../../components/DataTable";
import { Empty } from "../../../components/Status";
import { runHref } from "../../../lib/links";
import { formatDateTime } from "../../../lib/time";
import { VERDICT_TEXT } from "../lib/changes";
import { type CompareTable, matchedColumns, unmatchedColumns } from "./comparisonColumns";

const resultKey = (r: MatchedResult | UnmatchedResult) =>
  JSON.stringify([r.suite, r.benchmark, r.params, r.language, r.implementation, r.mode, r.variant, r.metric]);

function RunHeading({ side, run }: { side: string; run: RunSummary }) {
  return (
    <p>
      <strong>{side}:</strong> <Link to={runHref(run.id)}>{run.name ?? run.id}</Link> —{" "}
      {formatDateTime(run.started_at)}, {run.hardware_name}, branch {run.branch}{" "}
      <code className="muted">{run.id}</code>
    </p>
  );
}

function Unmatched({
  title,
  table,
  rows,
}: {
  title: string;
  /** The table's name in the URL keys of its sort. */
  table: CompareTable;
  rows: readonly UnmatchedResult[];
}) {
  const [sort, toggleSort] = useUrlSort("benchmark", "asc", table);
  const sorted = useSortedRows(rows, unmatchedColumns, sort);
  return (
    <>
      <h2>{title}</h2>
      {rows.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <DataTable
          caption={title}
          columns={unmatchedColumns}
          rows={sorted}
          rowKey={resultKey}
          sort={sort}
          onSort={toggleSort}
        />
      )}
    </>
  );
}

/** Shared results side by side with their change, then the results only one run has. */
export function ComparisonView({
  comparison,
  rows,
  sort,
  onSort,
}: {
  comparison: RunComparison;
  /** The shared results, sorted as `sort` says (the page's export shares them). */
  rows: readonly MatchedResult[];
  sort: SortState;
  onSort: (column: string) => void;
}) {
  const counts = { better: 0, worse: 0, noise: 0 };
  for (const r of comparison.matched) counts[r.verdict] += 1;
  return (
    <>
      <RunHeading side="Baseline" run={comparison.baseline} />
      <RunHeading side="Contender" run={comparison.contender} />
      <p aria-live="polite">
        {comparison.matched.length} shared results:{" "}
        <span className="verdict-better">
          {counts.better} {VERDICT_TEXT.better}
        </span>
        ,{" "}
        <span className="verdict-worse">
          {counts.worse} {VERDICT_TEXT.worse}
        </span>
        ,{" "}
        <span className="verdict-noise">
          {counts.noise} {VERDICT_TEXT.noise}
        </span>
        <span className="muted">
          {" "}
          (each judged against the baseline series' run-to-run noise and the runs' replicates; without either,
          changes under {(comparison.noise_threshold * 100).toFixed(1)}% count as noise)
        </span>
      </p>
      {rows.length === 0 ? (
        <Empty>The two runs share no results.</Empty>
      ) : (
        <DataTable
          caption="Results in both runs; Baseline and Contender are the figures each verdict compares, named: a run's median of samples where it has them, else its reported median or mean, else its value; change = contender / baseline − 1 of those figures"
          columns={matchedColumns}
          rows={rows}
          rowKey={resultKey}
          sort={sort}
          onSort={onSort}
          rowClass={(r) => `row-${r.verdict}`}
        />
      )}
      <Unmatched title="Only in the baseline" table="baseline" rows={comparison.only_in_baseline} />
      <Unmatched title="Only in the contender" table="contender" rows={comparison.only_in_contender} />
    </>
  );
}
