/** Pivots the latest value of each series into grouped bar charts, one per metric and unit dimension. */
import { languageColor, modeColor } from "../../../lib/colors";
import { type ChartSeriesIdentity, implementationLabel, workloadLabel } from "../../../lib/identity";
import { type Scale, scaleFor, toBase } from "../../../lib/units";

export interface LatestValue {
  run_id: string;
  started_at: string;
  value: number;
  unit: string;
  value_base: number;
  stats?: { min?: number | null; max?: number | null } | null;
}

export type SeriesLike = ChartSeriesIdentity & { latest: LatestValue | null };

type Measured = SeriesLike & { latest: LatestValue };

export interface BarSeries {
  key: string;
  label: string;
  language: string;
  mode: string | null;
  color: string;
}

export interface BarCell {
  /** In the chart's display unit. */
  value: number;
  /** Offsets below and above `value` to stats.min and stats.max, display unit. */
  error: [number, number] | null;
  seriesId: number | string;
  runId: string;
}

export interface BarRow {
  key: string;
  label: string;
  cells: Record<string, BarCell>;
}

export interface BarChartModel {
  key: string;
  metric: string;
  baseUnit: string;
  direction: "lower" | "higher" | "mixed";
  scale: Scale;
  bars: BarSeries[];
  rows: BarRow[];
}

const MODE_ORDER: Record<string, number> = { sync: 0, async: 1 };

function barKey(s: SeriesLike): string {
  return JSON.stringify([s.language, s.implementation ?? null, s.mode ?? null, s.variant ?? null]);
}

function groupKey(s: SeriesLike): string {
  return JSON.stringify([s.suite, s.hardware, s.benchmark, s.params]);
}

function compareBars(a: SeriesLike, b: SeriesLike): number {
  return (
    a.language.localeCompare(b.language) ||
    (a.implementation ?? "").localeCompare(b.implementation ?? "") ||
    (MODE_ORDER[a.mode ?? ""] ?? 2) - (MODE_ORDER[b.mode ?? ""] ?? 2) ||
    (a.variant ?? "").localeCompare(b.variant ?? "")
  );
}

function buildBars(series: readonly SeriesLike[]): BarSeries[] {
  const firsts = new Map<string, SeriesLike>();
  for (const s of [...series].sort(compareBars)) if (!firsts.has(barKey(s))) firsts.set(barKey(s), s);
  const perMode = new Map<string, number>();
  return [...firsts.entries()].map(([key, s]) => {
    const index = perMode.get(s.mode ?? "") ?? 0;
    perMode.set(s.mode ?? "", index + 1);
    return {
      key,
      label: implementationLabel(s),
      language: s.language,
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

function groupLabel(s: SeriesLike, showSuite: boolean, showHardware: boolean): string {
  const context = [showSuite ? s.suite : "", showHardware ? s.hardware : ""].filter(Boolean).join(", ");
  const workload = workloadLabel(s.benchmark, s.params);
  return context ? `${workload} [${context}]` : workload;
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
      a.suite.localeCompare(b.suite) ||
      a.hardware.localeCompare(b.hardware) ||
      a.benchmark.localeCompare(b.benchmark, "en", { numeric: true }) ||
      workloadLabel(a.benchmark, a.params).localeCompare(workloadLabel(b.benchmark, b.params), "en", {
        numeric: true,
      }),
  );
  for (const s of ordered) {
    const row = rows.get(groupKey(s)) ?? {
      key: groupKey(s),
      label: groupLabel(s, showSuite, showHardware),
      cells: {},
    };
    const value = scale.toDisplay(s.latest.value_base);
    row.cells[barKey(s)] = { value, error: errorOf(s, scale, value), seriesId: s.id, runId: s.latest.run_id };
    rows.set(row.key, row);
  }
  const directions = new Set(series.map((s) => s.direction));
  return {
    key,
    metric: first.metric,
    baseUnit: first.base_unit,
    direction: directions.size === 1 ? (first.direction as "lower" | "higher") : "mixed",
    scale,
    bars: buildBars(series),
    rows: [...rows.values()],
  };
}

/** One chart per metric and unit dimension, in metric order; series without a value are left out. */
export function buildBarCharts(series: readonly SeriesLike[]): BarChartModel[] {
  const byChart = new Map<string, Measured[]>();
  for (const s of series) {
    if (!s.latest) continue;
    const key = `${s.metric} [${s.base_unit}]`;
    byChart.set(key, [...(byChart.get(key) ?? []), s as Measured]);
  }
  return [...byChart.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, members]) => buildChart(key, members));
}

/** A line of the drawn chart: a group's heading, or one bar of the group. */
export type ChartLine =
  | { kind: "group"; key: string; label: string }
  | { kind: "bar"; key: string; label: string; bar: BarSeries; cell: BarCell };

/**
 * The chart as lines: each group's heading followed by only the bars it has, so sparse groups take
 * no room for bars they lack.
 */
export function chartLines(chart: BarChartModel): ChartLine[] {
  return chart.rows.flatMap((row): ChartLine[] => [
    { kind: "group", key: row.key, label: row.label },
    ...chart.bars.flatMap((bar): ChartLine[] => {
      const cell = row.cells[bar.key];
      return cell ? [{ kind: "bar", key: `${row.key}|${bar.key}`, label: bar.label, bar, cell }] : [];
    }),
  ]);
}
