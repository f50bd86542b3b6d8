/** Shapes series histories into time charts: one per unit dimension, a line per series. */
import type { HistoryPoint, SeriesHistory } from "../../../api/types";
import type {
  HistoryChartModel,
  HistoryDatum,
  HistoryLine,
} from "../../../components/charts/historyChartModel";
import { type SeriesStyle, seriesStyles } from "../../../lib/colors";
import { seriesLabel as seriesLabelOf } from "../../../lib/identity";
import { type Scale, scaleFor, toBase } from "../../../lib/units";

/** The branch is named when a chart holds series of several branches (a feature against main). */
function seriesLabel(s: SeriesHistory["series"], withBranch: boolean): string {
  const branch = withBranch ? `, branch ${s.branch}` : "";
  return `${seriesLabelOf(s)}, ${s.metric}, ${s.hardware}${branch}`;
}

function bandOf(point: HistoryPoint, scale: Scale): [number, number] | null {
  if (typeof point.min_base === "number" && typeof point.max_base === "number") {
    return [scale.toDisplay(point.min_base), scale.toDisplay(point.max_base)];
  }
  const { min, max } = point.stats ?? {};
  if (typeof min !== "number" || typeof max !== "number") return null;
  return [scale.toDisplay(toBase(min, point.unit)), scale.toDisplay(toBase(max, point.unit))];
}

function allBaseValues(histories: readonly SeriesHistory[]): number[] {
  return histories.flatMap((h) => h.points.flatMap((p) => [p.value_base, p.max_base ?? p.value_base]));
}

/** Per series id, the runs whose results a maintainer marked as outliers. */
export type Outliers = ReadonlyMap<number, ReadonlySet<string>>;

function buildChart(key: string, histories: readonly SeriesHistory[], outliers: Outliers): HistoryChartModel {
  const first = (histories[0] as SeriesHistory).series;
  const scale = scaleFor(allBaseValues(histories), first.base_unit);
  const severalBranches = new Set(histories.map((h) => h.series.branch)).size > 1;
  const styles = seriesStyles(histories.map((h) => String(h.series.id)));
  const lines = histories.map((h): HistoryLine => {
    const style = styles.get(String(h.series.id)) as SeriesStyle;
    return {
      key: String(h.series.id),
      label: seriesLabel(h.series, severalBranches),
      color: style.color,
      dash: style.dash,
      marker: style.marker,
      points: h.points
        .map((p) => ({
          t: Date.parse(p.started_at),
          value: scale.toDisplay(p.value_base),
          band: bandOf(p, scale),
          runId: p.run_id,
          count: p.count,
          outlier: outliers.get(h.series.id)?.has(p.run_id) ?? false,
        }))
        .sort((a, b) => a.t - b.t),
      downsampled: h.downsampled,
      totalPoints: h.total_points,
    };
  });
  const directions = new Set(histories.map((h) => h.series.direction));
  return {
    key,
    metrics: [...new Set(histories.map((h) => h.series.metric))],
    direction: directions.size === 1 ? first.direction : "mixed",
    scale,
    lines,
  };
}

/** One chart per unit dimension, so series that can share an axis do; charts in first-seen order. */
export function buildHistoryCharts(
  histories: readonly SeriesHistory[],
  outliers: Outliers = new Map(),
): HistoryChartModel[] {
  const byUnit = new Map<string, SeriesHistory[]>();
  for (const h of histories) byUnit.set(h.series.base_unit, [...(byUnit.get(h.series.base_unit) ?? []), h]);
  return [...byUnit.entries()].map(([unit, members]) => buildChart(unit, members, outliers));
}

/** One point the charts draw, as a row of the table under them, with its chart's number format. */
export interface PointRow {
  line: HistoryLine;
  point: HistoryDatum;
  format: (displayValue: number, significant?: number) => string;
  unit: string;
}

/** Every point of every chart, chart by chart and line by line, as the table's rows. */
export function pointRows(charts: readonly HistoryChartModel[]): PointRow[] {
  return charts.flatMap((chart) =>
    chart.lines.flatMap((line) =>
      line.points.map((point) => ({ line, point, format: chart.scale.format, unit: chart.scale.label })),
    ),
  );
}
