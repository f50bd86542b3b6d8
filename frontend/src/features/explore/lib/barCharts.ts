/** Pivots the latest value of each series into grouped bar charts, one per metric and unit dimension. */
import type { LatestValue, Series } from "../../../api/types";
import type { BarChartModel, BarRow, BarSeries } from "../../../components/charts/barChartModel";
import { languageColor, modeColor } from "../../../lib/colors";
import { implementationLabel, modeRank, workloadLabel } from "../../../lib/identity";
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
    a.language.localeCompare(b.language) ||
    (a.implementation ?? "").localeCompare(b.implementation ?? "") ||
    modeRank(a.mode) - modeRank(b.mode) ||
    (a.variant ?? "").localeCompare(b.variant ?? "")
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
    row.cells[barKey(s)] = { value, error: errorOf(s, scale, value), seriesId: s.id };
    rows.set(row.key, row);
  }
  const directions = new Set(series.map((s) => s.direction));
  return {
    key,
    metric: first.metric,
    direction: directions.size === 1 ? first.direction : "mixed",
    scale,
    bars: buildBars(series),
    rows: [...rows.values()],
  };
}

/** One chart per metric and unit dimension, in metric order; series without a value are left out. */
export function buildBarCharts(series: readonly SeriesLatest[]): BarChartModel[] {
  const byChart = new Map<string, Measured[]>();
  for (const s of series.filter(isMeasured)) {
    const key = `${s.metric} [${s.base_unit}]`;
    byChart.set(key, [...(byChart.get(key) ?? []), s]);
  }
  return [...byChart.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, members]) => buildChart(key, members));
}
