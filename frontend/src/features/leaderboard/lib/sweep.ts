/**
 * A parameter sweep: where series of one benchmark and metric differ in a numeric param (writes,
 * size, cores, connections), their values against that param, one line per implementation/mode
 * and whatever else still tells them apart.
 */
import { HARDWARE } from "../../../lib/board";
import { modeColor, SERIES_PALETTE } from "../../../lib/colors";
import { formatParam, implementationLabel } from "../../../lib/identity";
import type { BoardSeries } from "./board";

/** Colours in each mode's family before they repeat (lib/colors). */
const MODE_FAMILY_SIZE = 3;

const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** Numeric params, not merged away, taking at least two values: what can be swept. */
export function sweepParams(series: readonly BoardSeries[], ignore: readonly string[]): string[] {
  const values = new Map<string, Set<number>>();
  for (const s of series) {
    for (const [key, value] of Object.entries(s.params)) {
      if (!isNumber(value) || ignore.includes(key)) continue;
      values.set(key, (values.get(key) ?? new Set()).add(value));
    }
  }
  return [...values]
    .filter(([, seen]) => seen.size > 1)
    .map(([key]) => key)
    .sort();
}

export interface SweepPoint {
  x: number;
  /** The latest value, in the base unit. */
  y: number;
  seriesId: number;
}

export interface SweepLine {
  key: string;
  /** "dart · dart:io · async · sequential", plus what else differs between lines. */
  label: string;
  mode: string | null;
  points: SweepPoint[];
}

/** What makes a series' line: everything but the swept param and what is merged. */
function lineIdentity(s: BoardSeries, param: string, ignore: readonly string[]): Record<string, string> {
  const identity: Record<string, string> = {};
  if (!ignore.includes(HARDWARE)) identity[HARDWARE] = s.hardware;
  for (const key of Object.keys(s.params).sort()) {
    if (key !== param && !ignore.includes(key)) identity[key] = String(s.params[key]);
  }
  return identity;
}

/** One line per implementation/mode/variant (and remaining params), points in order of the param. */
export function sweepLines(
  series: readonly BoardSeries[],
  param: string,
  ignore: readonly string[],
): SweepLine[] {
  const lines = new Map<
    string,
    { identity: Record<string, string>; series: BoardSeries; points: SweepPoint[] }
  >();
  for (const s of series) {
    const x = s.params[param];
    if (!s.latest || !isNumber(x)) continue;
    const identity = lineIdentity(s, param, ignore);
    const key = JSON.stringify([s.language, s.implementation, s.mode, s.variant, identity]);
    const line = lines.get(key) ?? { identity, series: s, points: [] };
    // Merged series may meet at one x: the first keeps it, so a line never doubles back.
    if (!line.points.some((p) => p.x === x)) line.points.push({ x, y: s.latest.value_base, seriesId: s.id });
    lines.set(key, line);
  }
  const all = [...lines.values()];
  const varying = [...new Set(all.flatMap((l) => Object.keys(l.identity)))].filter(
    (key) => new Set(all.map((l) => l.identity[key])).size > 1,
  );
  return [...lines]
    .map(([key, line]) => ({
      key,
      label: [
        implementationLabel(line.series),
        ...varying.map((k) => formatParam(k, line.identity[k] ?? "(none)")),
      ].join(" · "),
      mode: line.series.mode,
      points: line.points.sort((a, b) => a.x - b.x),
    }))
    .sort((a, b) => a.label.localeCompare(b.label, "en", { numeric: true }));
}

/** Whether the param's values span enough (10×, all positive) to read best on a log axis. */
export function logAxisFits(lines: readonly SweepLine[]): boolean {
  const xs = lines.flatMap((l) => l.points.map((p) => p.x));
  return xs.length > 0 && Math.min(...xs) > 0 && Math.max(...xs) / Math.min(...xs) >= 10;
}

/** One row per value of the param, holding each line's value there (undefined where it has none). */
export interface SweepRow {
  x: number;
  values: Record<string, number | undefined>;
}

export function sweepRows(lines: readonly SweepLine[], toDisplay: (value: number) => number): SweepRow[] {
  const rows = new Map<number, SweepRow>();
  for (const line of lines) {
    for (const point of line.points) {
      const row = rows.get(point.x) ?? { x: point.x, values: {} };
      row.values[line.key] = toDisplay(point.y);
      rows.set(point.x, row);
    }
  }
  return [...rows.values()].sort((a, b) => a.x - b.x);
}

/**
 * Each line's colour from its mode's family (blues sync, reds async; lines without a mode take
 * the series palette in order, which leaves out yellow, unreadable as legend text on white),
 * dashed once its colours repeat.
 */
export function lineStyles(
  lines: readonly SweepLine[],
): { key: string; label: string; color: string; dash?: string }[] {
  const seen = new Map<string | null, number>();
  return lines.map((line) => {
    const index = seen.get(line.mode) ?? 0;
    seen.set(line.mode, index + 1);
    const modeless = line.mode !== "sync" && line.mode !== "async";
    const repeats = index >= (modeless ? SERIES_PALETTE.length : MODE_FAMILY_SIZE);
    const color = modeless
      ? (SERIES_PALETTE[index % SERIES_PALETTE.length] as string)
      : modeColor(line.mode, index);
    return { key: line.key, label: line.label, color, ...(repeats ? { dash: "6 3" } : {}) };
  });
}
