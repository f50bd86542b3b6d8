import { Link } from "react-router";
import type { LatestValue, Series } from "../../../api/types";
import { languageColor } from "../../../lib/colors";
import { historyHref } from "../../../lib/filters";
import { formatParams, workloadLabel } from "../../../lib/identity";
import { runHref } from "../../../lib/links";
import type { Column } from "../../../lib/table";
import { formatDate } from "../../../lib/time";
import { formatValue } from "../../../lib/units";

export type MeasuredSeries = Series & { latest: LatestValue };

const text = (id: keyof Series & string, header: string): Column<MeasuredSeries> => ({
  id,
  header,
  text: (s) => String(s[id] ?? ""),
});

function range(s: MeasuredSeries): string {
  const { min, max } = s.latest.stats ?? {};
  if (typeof min !== "number" || typeof max !== "number") return "";
  return `${formatValue(min, s.latest.unit)} – ${formatValue(max, s.latest.unit)}`;
}

/**
 * The explore table: one row per series, the same rows the charts draw. The workload, its value
 * and which way is better come first and stay pinned while the other columns scroll sideways.
 */
export function seriesColumns(selection: {
  isSelected: (id: MeasuredSeries["id"]) => boolean;
  toggle: (id: MeasuredSeries["id"]) => void;
}): Column<MeasuredSeries>[] {
  return [
    {
      id: "select",
      header: "Plot",
      text: () => "",
      sortValue: () => null,
      raw: () => ({}),
      pin: true,
      width: 52,
      render: (s) => (
        <input
          type="checkbox"
          aria-label={`Select series ${s.id} for the history chart`}
          checked={selection.isSelected(s.id)}
          onChange={() => selection.toggle(s.id)}
        />
      ),
    },
    {
      ...text("benchmark", "Benchmark"),
      sortValue: (s) => workloadLabel(s.benchmark, s.params),
      pin: true,
      width: 200,
    },
    {
      id: "value",
      header: "Latest value",
      align: "end",
      text: (s) => formatValue(s.latest.value, s.latest.unit),
      sortValue: (s) => s.latest.value_base,
      raw: (s) => ({ "Latest value": s.latest.value, Unit: s.latest.unit }),
      dataValue: (s) => s.latest.value,
      pin: true,
      width: 116,
    },
    { id: "direction", header: "Better", text: (s) => s.direction, pin: true, width: 76 },
    { id: "params", header: "Params", text: (s) => formatParams(s.params) },
    {
      ...text("language", "Language"),
      render: (s) => (
        <span>
          <span className="swatch" style={{ background: languageColor(s.language) }} aria-hidden="true" />{" "}
          {s.language}
        </span>
      ),
    },
    text("implementation", "Implementation"),
    text("mode", "Mode"),
    text("variant", "Variant"),
    text("metric", "Metric"),
    text("suite", "Suite"),
    text("hardware", "Hardware"),
    { id: "range", header: "Min – max", align: "end", text: range },
    {
      id: "runs",
      header: "Runs",
      align: "end",
      text: (s) => String(s.run_count),
      sortValue: (s) => s.run_count,
      raw: (s) => ({ Runs: s.run_count }),
    },
    {
      id: "date",
      header: "Latest run",
      text: (s) => formatDate(s.latest.started_at),
      sortValue: (s) => Date.parse(s.latest.started_at),
      raw: (s) => ({ "Latest run": s.latest.started_at, "Run id": s.latest.run_id }),
      render: (s) => <Link to={runHref(s.latest.run_id)}>{formatDate(s.latest.started_at)}</Link>,
    },
    {
      id: "history",
      header: "History",
      text: () => "",
      sortValue: () => null,
      raw: (s) => ({ "Series id": s.id }),
      render: (s) => <Link to={historyHref([s.id])}>history</Link>,
    },
  ];
}
