/** What GroupedBarChart draws: groups of bars in one display unit. Features build it from their data. */
import { getNiceTickValues } from "recharts";
import type { Direction, Scale } from "../../lib/units";
import { wrapText } from "../../lib/wrapText";

/** One implementation across the groups: its legend entry and colour. */
export interface BarSeries {
  key: string;
  label: string;
  mode: string | null;
  color: string;
}

export interface BarCell {
  /** In the chart's display unit. */
  value: number;
  /** Offsets below and above `value` to the lowest and highest reported value, display unit. */
  error: [number, number] | null;
  /** Handed to the chart's `onSelectSeries` when the bar is clicked. */
  seriesId: number;
}

/** One group (a workload): its cells by bar key. */
export interface BarRow {
  key: string;
  label: string;
  cells: Record<string, BarCell>;
}

export interface BarChartModel {
  key: string;
  /** What the chart is of, e.g. its benchmark. */
  title: string;
  metric: string;
  direction: Direction | "mixed";
  scale: Scale;
  bars: BarSeries[];
  rows: BarRow[];
}

/** A line of the drawn chart: a group's heading, or one bar of the group. */
export type ChartLine =
  | { kind: "group"; key: string; label: string }
  | { kind: "bar"; key: string; label: string; bar: BarSeries; cell: BarCell };

/**
 * The chart as lines: each group's heading followed by only the bars it has, so sparse groups take
 * no room for bars they lack. With a single implementation (named in the legend) a group is one
 * bar under the group's name, with no heading.
 */
export function chartLines(chart: Pick<BarChartModel, "bars" | "rows">): ChartLine[] {
  const [only, ...others] = chart.bars;
  if (only && others.length === 0)
    return chart.rows.flatMap((row): ChartLine[] => {
      const cell = row.cells[only.key];
      return cell ? [{ kind: "bar", key: row.key, label: row.label, bar: only, cell }] : [];
    });
  return chart.rows.flatMap((row): ChartLine[] => [
    { kind: "group", key: row.key, label: row.label },
    ...chart.bars.flatMap((bar): ChartLine[] => {
      const cell = row.cells[bar.key];
      return cell ? [{ kind: "bar", key: `${row.key}|${bar.key}`, label: bar.label, bar, cell }] : [];
    }),
  ]);
}

/**
 * The linear value axis's ticks, as Recharts draws them for a `[0, "auto"]` domain whose data
 * takes in every whisker: zero, or the lowest whisker below it, to the highest whisker end,
 * widened to nice steps. The chart draws its whiskers itself (an ErrorBar registers its ends
 * only after the bars' first draw, and the wider axis then draws every bar a second time); it
 * gives the axis these ticks, and their ends as its domain, so the bars are drawn once.
 */
export function linearTicks(data: readonly BarDatum[]): number[] | undefined {
  const ends = data.flatMap((d) =>
    d.value === undefined ? [] : [d.value - (d.error?.[0] ?? 0), d.value + (d.error?.[1] ?? 0)],
  );
  if (ends.length === 0) return undefined;
  // Recharts's defaults: five ticks, decimals allowed, the "adaptive" step.
  return getNiceTickValues([Math.min(0, ...ends), Math.max(...ends)], 5, true, "adaptive");
}

/** Line height of a wrapped label, px. */
export const LINE = 13;

/** Characters per line of a label beside the bars. */
export const labelChars = (narrow: boolean) => (narrow ? 16 : 24);

/** Every line's height: room for the longest wrapped label, at least 22 px. */
function rowHeight(lines: readonly ChartLine[], narrow: boolean): number {
  return Math.max(22, ...lines.map((l) => wrapText(l.label, labelChars(narrow)).length * LINE + 6));
}

/** The height the chart takes, known before it draws (so a box can hold it before the chart is drawn). */
export function groupedBarChartHeight(chart: Pick<BarChartModel, "bars" | "rows">, narrow: boolean): number {
  const lines = chartLines(chart);
  return 40 + lines.length * rowHeight(lines, narrow);
}

/** The chart's margins, px (its right one holds the values past the longest bar). */
export const MARGIN = { top: 4, right: 64, bottom: 16, left: 4 };
/** The height Recharts gives the value axis (XAxis's default). */
const AXIS_HEIGHT = 30;
/** The most lines a piece of a tall chart draws: ~40 lines render in a task well under 50 ms. */
export const SLICE_LINES = 40;

/**
 * A band of a chart's lines drawn as a chart of its own: a chart of hundreds of lines drawn whole
 * is one long task (300 lines: 150–250 ms on two cores), and pieces can be drawn one per task and
 * only near the viewport. Only the first piece has the top margin and only the last the axis.
 */
export interface BarChartSlice {
  /** chartLines(chart).slice(start, end) are drawn. */
  start: number;
  end: number;
  /** The piece's height, px; the pieces' heights add up to groupedBarChartHeight. */
  height: number;
  /** Where its plot starts below the whole chart's plot top, px (the grid's dashes go on from there). */
  offset: number;
}

/**
 * The chart in pieces of at most `size` lines, one piece for a chart that fits in one. Each line
 * keeps the height it has in the whole chart (Recharts shares the plot's height among the lines),
 * so the pieces stacked are the whole chart.
 */
export function chartSlices(
  chart: Pick<BarChartModel, "bars" | "rows">,
  narrow: boolean,
  size = SLICE_LINES,
): BarChartSlice[] {
  const count = chartLines(chart).length;
  const height = groupedBarChartHeight(chart, narrow);
  if (count <= size) return [{ start: 0, end: count, height, offset: 0 }];
  const band = (height - MARGIN.top - MARGIN.bottom - AXIS_HEIGHT) / count;
  const slices: BarChartSlice[] = [];
  for (let start = 0; start < count; start += size) {
    const end = Math.min(start + size, count);
    const top = start === 0 ? MARGIN.top : 0;
    const bottom = end === count ? MARGIN.bottom + AXIS_HEIGHT : 0;
    slices.push({ start, end, height: top + (end - start) * band + bottom, offset: start * band });
  }
  return slices;
}

/** A line as the chart's data: its bar's value and whisker offsets; none for a group's heading. */
export type BarDatum = ChartLine & { value: number | undefined; error: [number, number] | undefined };

export function barData(lines: readonly ChartLine[]): BarDatum[] {
  return lines.map((l) => ({
    ...l,
    value: l.kind === "bar" ? l.cell.value : undefined,
    error: l.kind === "bar" ? (l.cell.error ?? undefined) : undefined,
  }));
}
