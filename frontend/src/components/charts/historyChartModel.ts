/** What HistoryChart draws: lines of points over real time, and markers. Features build it from their data. */
import type { ChangeDirection } from "../../api/types";
import type { SeriesMarker } from "../../lib/colors";
import type { Direction, Scale } from "../../lib/units";

export interface HistoryDatum {
  /** Milliseconds since the epoch. */
  t: number;
  /** Display units. */
  value: number;
  /** Lowest and highest value around the point (bucket min/max or stats.min/max), display units. */
  band: [number, number] | null;
  /** Handed to the chart's `onSelectRun` when the point is clicked. */
  runId: string;
  /** Runs the point stands for (more than one when downsampled). */
  count: number;
  /** A maintainer left it out of change detection: drawn hollow. */
  outlier?: boolean;
}

export interface HistoryLine {
  key: string;
  label: string;
  color: string;
  /** SVG dash pattern, a second cue where colours repeat; "" for solid. */
  dash: string;
  /** The shape of its points, changing with the dash (a single point has no line to dash). */
  marker: SeriesMarker;
  /** In time order. */
  points: HistoryDatum[];
  downsampled: boolean;
  totalPoints: number;
}

export interface HistoryChartModel {
  key: string;
  metrics: string[];
  direction: Direction | "mixed";
  scale: Scale;
  lines: HistoryLine[];
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

/** The first and last time of any point; [0, 0] without points. */
export function timeDomain(lines: readonly HistoryLine[]): [number, number] {
  const times = lines.flatMap((l) => l.points.map((p) => p.t));
  return times.length ? [Math.min(...times), Math.max(...times)] : [0, 0];
}

export type MarkerKind = ChangeDirection | "annotation";

/** A detected change or an annotation to mark on a history chart. */
export interface Marker {
  time: string | number;
  label: string;
  kind: MarkerKind;
  status?: string;
}

export interface PlacedMarker extends Marker {
  t: number;
}

/** Markers with a parseable time inside the chart's domain, in time order. */
export function placeMarkers(markers: readonly Marker[], domain: [number, number]): PlacedMarker[] {
  return markers
    .map((m) => ({ ...m, t: typeof m.time === "number" ? m.time : Date.parse(m.time) }))
    .filter((m) => Number.isFinite(m.t) && m.t >= domain[0] && m.t <= domain[1])
    .sort((a, b) => a.t - b.t);
}
