/**
 * Pivots the latest value of each series into small multiples: one grouped bar chart per benchmark,
 * metric and unit dimension, each with its own axis, so a suite of hundreds of benchmarks is a grid
 * of short charts rather than one chart with a scale that fits none.
 */
import type { LatestValue, Series } from "../../../api/types";
import type { BarChartModel, BarRow, BarSeries } from "../../../components/charts/barChartModel";
import { languageColor, modeColor } from "../../../lib/colors";
import { formatParams, implementationLabel, modeRank } from "../../../lib/identity";
import { compareText } from "../../../lib/table";
import { type Scale, scaleFor, toBase } from "../../../lib/units";

/** What the bar charts use of a series: its identity and its latest value, if any. */
export type SeriesLatest = Omit<Series, "unit" | "run_count" | "latest"> & {
  latest: Pick<LatestValue, "value" | "unit" | "value_base" | "stats"> | null;
};

type Measured = SeriesLatest & { latest: NonNullable<SeriesLatest["latest"]> };

const isMeasured = (s: SeriesLatest): s is Measured => s.latest !== null;

function barKey(s: SeriesLatest): string {
  return JSON.stringify([s.language, s.implementation ?? null, s.mode ?? null, s.variant ?? null]);
}

function groupKey(s: SeriesLatest): string {
  return JSON.stringify([s.suite, s.hardware, s.benchmark, s.params]);
}

function compareBars(a: SeriesLatest, b: SeriesLatest): number {
  return (
    compareText(a.language, b.language) ||
    compareText(a.implementation ?? "", b.implementation ?? "") ||
    modeRank(a.mode) - modeRank(b.mode) ||
    compareText(a.variant ?? "", b.variant ?? "")
  );
}

function buildBars(series: readonly SeriesLatest[]): BarSeries[] {
  const firsts = new Map<string, SeriesLatest>();
  for (const s of [...series].sort(compareBars)) if (!firsts.has(barKey(s))) firsts.set(barKey(s), s);
  const perMode = new Map<string, number>();
  return [...firsts.entries()].map(([key, s]) => {
    const index = perMode.get(s.mode ?? "") ?? 0;
    perMode.set(s.mode ?? "", index + 1);
    return {
      key,
      label: implementationLabel(s),
      mode: s.mode ?? null,
      // Without a mode there is no sync/async to tell apart: the bar takes its language's colour.
      color: s.mode ? modeColor(s.mode, index) : languageColor(s.language),
    };
  });
}

function errorOf(s: Measured, scale: Scale, value: number): [number, number] | null {
  const { min, max } = s.latest.stats ?? {};
  if (typeof min !== "number" && typeof max !== "number") return null;
  const lo = typeof min === "number" ? scale.toDisplay(toBase(min, s.latest.unit)) : value;
  const hi = typeof max === "number" ? scale.toDisplay(toBase(max, s.latest.unit)) : value;
  return [Math.max(0, value - lo), Math.max(0, hi - value)];
}

function groupLabel(s: SeriesLatest, showSuite: boolean, showHardware: boolean): string {
  const context = [showSuite ? s.suite : "", showHardware ? s.hardware : ""].filter(Boolean).join(", ");
  const params = formatParams(s.params) || "no params";
  return context ? `${params} [${context}]` : params;
}

function buildChart(key: string, series: readonly Measured[]): BarChartModel {
  const first = series[0] as Measured;
  const scale = scaleFor(
    series.map((s) => s.latest.value_base),
    first.base_unit,
  );
  const showSuite = new Set(series.map((s) => s.suite)).size > 1;
  const machines = new Set(series.map((s) => `${s.suite} ${s.hardware}`));
  const showHardware = machines.size > new Set(series.map((s) => s.suite)).size;
  const rows = new Map<string, BarRow>();
  const ordered = [...series].sort(
    (a, b) =>
      compareText(a.suite, b.suite) ||
      compareText(a.hardware, b.hardware) ||
      compareText(formatParams(a.params), formatParams(b.params)),
  );
  for (const s of ordered) {
    const row = rows.get(groupKey(s)) ?? {
      key: groupKey(s),
      label: groupLabel(s, showSuite, showHardware),
      cells: {},
    };
    const value = scale.toDisplay(s.latest.value_base);
    row.cells[barKey(s)] = { value, error: errorOf(s, scale, value), seriesId: s.id };
    rows.set(row.key, row);
  }
  const directions = new Set(series.map((s) => s.direction));
  return {
    key,
    title: first.benchmark,
    metric: first.metric,
    direction: directions.size === 1 ? first.direction : "mixed",
    scale,
    bars: buildBars(series),
    rows: [...rows.values()],
  };
}

const chartKey = (s: SeriesLatest) => `${s.benchmark} · ${s.metric} [${s.base_unit}]`;

/**
 * One chart per benchmark, metric and unit dimension, in benchmark then metric order; series
 * without a value are left out.
 */
export function buildBarCharts(series: readonly SeriesLatest[]): BarChartModel[] {
  const byChart = new Map<string, Measured[]>();
  for (const s of series.filter(isMeasured)) {
    const members = byChart.get(chartKey(s));
    if (members) members.push(s);
    else byChart.set(chartKey(s), [s]);
  }
  return [...byChart.entries()]
    .map(([key, members]) => buildChart(key, members))
    .sort((a, b) => compareText(a.title, b.title) || compareText(a.key, b.key));
}
