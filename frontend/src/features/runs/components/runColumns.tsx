import { Link } from "react-router";
import type { RunResult, RunSummary } from "../../../api/types";
import { historyHref } from "../../../lib/filters";
import { formatParams } from "../../../lib/identity";
import { runHref } from "../../../lib/links";
import type { Column } from "../../../lib/table";
import { formatDateTime } from "../../../lib/time";
import { formatValue } from "../../../lib/units";

/** The runs list: when each run started and how many results it holds pinned first, in view at 1400 px. */
export const runListColumns: Column<RunSummary>[] = [
  {
    id: "started",
    header: "Started",
    text: (r) => formatDateTime(r.started_at),
    sortValue: (r) => Date.parse(r.started_at),
    raw: (r) => ({ Started: r.started_at }),
    render: (r) => <Link to={runHref(r.id)}>{formatDateTime(r.started_at)}</Link>,
    pin: true,
    width: 196,
  },
  {
    id: "results",
    header: "Results",
    align: "end",
    text: (r) => String(r.result_count),
    sortValue: (r) => r.result_count,
    raw: (r) => ({ Results: r.result_count }),
    pin: true,
    width: 84,
  },
  { id: "suite", header: "Suite", text: (r) => r.suite },
  { id: "name", header: "Name", text: (r) => r.name ?? "" },
  {
    id: "branch",
    header: "Branch",
    text: (r) => r.branch,
    render: (r) => (
      <Link to={`/runs?${new URLSearchParams({ suite: r.suite, branch: r.branch })}`}>{r.branch}</Link>
    ),
  },
  { id: "commit", header: "Commit", text: (r) => r.commit?.slice(0, 12) ?? "" },
  { id: "hardware", header: "Hardware", text: (r) => r.hardware_name },
  { id: "id", header: "Run id", text: (r) => r.id },
];

function statsText(r: RunResult): string {
  if (!r.stats) return "";
  return Object.entries(r.stats)
    .map(([k, v]) => `${k} ${k === "n" ? v : formatValue(v, r.unit)}`)
    .join(", ");
}

/** A run's results: the workload, its value and which way is better pinned first. */
export const resultColumns: Column<RunResult>[] = [
  { id: "benchmark", header: "Benchmark", text: (r) => r.benchmark, pin: true, width: 200 },
  {
    id: "value",
    header: "Value",
    align: "end",
    text: (r) => formatValue(r.value, r.unit),
    sortValue: (r) => r.value_base,
    raw: (r) => ({ Value: r.value, Unit: r.unit }),
    dataValue: (r) => r.value,
    pin: true,
    width: 116,
  },
  { id: "direction", header: "Better", text: (r) => r.direction, pin: true, width: 76 },
  { id: "params", header: "Params", text: (r) => formatParams(r.params) },
  { id: "language", header: "Language", text: (r) => r.language },
  { id: "implementation", header: "Implementation", text: (r) => r.implementation ?? "" },
  { id: "mode", header: "Mode", text: (r) => r.mode ?? "" },
  { id: "variant", header: "Variant", text: (r) => r.variant ?? "" },
  { id: "metric", header: "Metric", text: (r) => r.metric },
  { id: "stats", header: "Stats", text: statsText },
  {
    id: "samples",
    header: "Samples",
    align: "end",
    text: (r) => String(r.sample_count),
    sortValue: (r) => r.sample_count,
    raw: (r) => ({ Samples: r.sample_count }),
  },
  {
    id: "history",
    header: "History",
    text: () => "",
    sortValue: () => null,
    raw: (r) => ({ "Series id": r.series_id }),
    render: (r) => <Link to={historyHref([r.series_id])}>history</Link>,
  },
];
