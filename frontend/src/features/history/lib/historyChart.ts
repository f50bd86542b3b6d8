/** Shapes series histories into time charts: one per unit dimension, a line per series. */
import { languageColor } from "../../../lib/colors";
import { type ChartSeriesIdentity, implementationLabel, workloadLabel } from "../../../lib/identity";
import { type Scale, scaleFor, toBase } from "../../../lib/units";

export interface PointLike {
  run_id: string;
  started_at: string;
  value: number;
  unit: string;
  value_base: number;
  stats?: { min?: number | null; max?: number | null } | null;
  count?: number;
  min_base?: number | null;
  max_base?: number | null;
}

export type HistorySeriesLike = ChartSeriesIdentity;

export interface HistoryLike {
  series: HistorySeriesLike;
  points: readonly PointLike[];
  downsampled: boolean;
  total_points: number;
}

export interface HistoryDatum {
  /** Milliseconds since the epoch. */
  t: number;
  /** Display units. */
  value: number;
  /** Lowest and highest value around the point (bucket min/max or stats.min/max), display units. */
  band: [number, number] | null;
  runId: string;
  /** Runs the point stands for (more than one when downsampled). */
  count: number;
}

export interface HistoryLine {
  key: string;
  label: string;
  color: string;
  /** SVG dash pattern telling apart lines of one language; "" for solid. */
  dash: string;
  points: HistoryDatum[];
  downsampled: boolean;
  totalPoints: number;
}

export interface HistoryChartModel {
  key: string;
  metrics: string[];
  baseUnit: string;
  direction: "lower" | "higher" | "mixed";
  scale: Scale;
  lines: HistoryLine[];
  /** The lines joined on time, for the chart's one data set. */
  rows: TimeRow[];
  domain: [number, number];
}

const DASHES = ["", "6 3", "2 3", "8 3 2 3"];

function seriesLabel(s: HistorySeriesLike): string {
  return `${implementationLabel(s)} — ${workloadLabel(s.benchmark, s.params)}, ${s.metric}, ${s.hardware}`;
}

function bandOf(point: PointLike, scale: Scale): [number, number] | null {
  if (typeof point.min_base === "number" && typeof point.max_base === "number") {
    return [scale.toDisplay(point.min_base), scale.toDisplay(point.max_base)];
  }
  const { min, max } = point.stats ?? {};
  if (typeof min !== "number" || typeof max !== "number") return null;
  return [scale.toDisplay(toBase(min, point.unit)), scale.toDisplay(toBase(max, point.unit))];
}

function allBaseValues(histories: readonly HistoryLike[]): number[] {
  return histories.flatMap((h) => h.points.flatMap((p) => [p.value_base, p.max_base ?? p.value_base]));
}

function buildChart(key: string, histories: readonly HistoryLike[]): HistoryChartModel {
  const first = (histories[0] as HistoryLike).series;
  const scale = scaleFor(allBaseValues(histories), first.base_unit);
  const perLanguage = new Map<string, number>();
  const lines = histories.map((h): HistoryLine => {
    const index = perLanguage.get(h.series.language) ?? 0;
    perLanguage.set(h.series.language, index + 1);
    return {
      key: String(h.series.id),
      label: seriesLabel(h.series),
      color: languageColor(h.series.language),
      dash: DASHES[index % DASHES.length] as string,
      points: h.points
        .map((p) => ({
          t: Date.parse(p.started_at),
          value: scale.toDisplay(p.value_base),
          band: bandOf(p, scale),
          runId: p.run_id,
          count: p.count ?? 1,
        }))
        .sort((a, b) => a.t - b.t),
      downsampled: h.downsampled,
      totalPoints: h.total_points,
    };
  });
  const times = lines.flatMap((l) => l.points.map((p) => p.t));
  const directions = new Set(histories.map((h) => h.series.direction));
  return {
    key,
    metrics: [...new Set(histories.map((h) => h.series.metric))],
    baseUnit: first.base_unit,
    direction: directions.size === 1 ? (first.direction as "lower" | "higher") : "mixed",
    scale,
    lines,
    rows: mergeByTime(lines),
    domain: times.length ? [Math.min(...times), Math.max(...times)] : [0, 0],
  };
}

/** One chart per unit dimension, so series that can share an axis do; charts in first-seen order. */
export function buildHistoryCharts(histories: readonly HistoryLike[]): HistoryChartModel[] {
  const byUnit = new Map<string, HistoryLike[]>();
  for (const h of histories) byUnit.set(h.series.base_unit, [...(byUnit.get(h.series.base_unit) ?? []), h]);
  return [...byUnit.entries()].map(([unit, members]) => buildChart(unit, members));
}

export interface TimeRow {
  t: number;
  /** Per line key, its point at this time. */
  points: Record<string, HistoryDatum>;
}

/** One row per distinct time holding every line's point there, for a chart with one shared data set. */
export function mergeByTime(lines: readonly HistoryLine[]): TimeRow[] {
  const rows = new Map<number, TimeRow>();
  for (const line of lines) {
    for (const point of line.points) {
      const row = rows.get(point.t) ?? { t: point.t, points: {} };
      row.points[line.key] = point;
      rows.set(point.t, row);
    }
  }
  return [...rows.values()].sort((a, b) => a.t - b.t);
}
