/**
 * One benchmark and metric as a leaderboard: series grouped by what the reader keeps apart (the
 * machine and the params not merged), each group ranked best first by the metric's direction.
 */
import type { LatestValue, Series } from "../../../api/types";
import { groupKey, HARDWARE } from "../../../lib/board";
import { type Comparison, compareRatio, comparisonText } from "../../../lib/factor";
import { implementationLabel } from "../../../lib/identity";

export type BoardSeries = Pick<
  Series,
  | "id"
  | "hardware"
  | "params"
  | "language"
  | "implementation"
  | "mode"
  | "variant"
  | "unit"
  | "base_unit"
  | "direction"
> & { latest: Pick<LatestValue, "value" | "unit" | "value_base" | "run_id"> | null };

export interface ParamChoice {
  /** A param name, or `hardware`. */
  key: string;
  /** Its distinct values, as text. */
  values: string[];
}

const paramText = (series: BoardSeries, key: string): string =>
  key === HARDWARE ? series.hardware : key in series.params ? String(series.params[key]) : "(none)";

const byNatural = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true });

/** The params (and the machine) whose values differ between series: what a reader may merge across. */
export function paramChoices(series: readonly BoardSeries[]): ParamChoice[] {
  const keys = new Set([HARDWARE, ...series.flatMap((s) => Object.keys(s.params))]);
  return [...keys]
    .map((key) => ({ key, values: [...new Set(series.map((s) => paramText(s, key)))].sort(byNatural) }))
    .filter((choice) => choice.values.length > 1)
    .sort((a, b) => byNatural(a.key, b.key));
}

export interface BoardGroup {
  key: string;
  series: BoardSeries[];
}

/** Series with a value, grouped by groupKey; groups in natural order of their keys. */
export function boardGroups(series: readonly BoardSeries[], ignore: readonly string[]): BoardGroup[] {
  const groups = new Map<string, BoardSeries[]>();
  for (const s of series) {
    if (!s.latest) continue;
    const key = groupKey(s.hardware, s.params, ignore);
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  return [...groups]
    .map(([key, members]) => ({ key, series: members }))
    .sort((a, b) => byNatural(a.key, b.key));
}

export interface BoardEntry {
  series: BoardSeries;
  rank: number;
  /** "go · net/http". */
  label: string;
  /** What tells merged series apart: "cores=8 · approx". */
  detail: string;
  value: number;
  /** Length of its bar, 0–1 of the largest value of the group. */
  bar: number;
  /** Against the best entry (factor 1 for the best). */
  vsBest: Comparison;
  /** Against the reader's baseline, when one is chosen and in the group. */
  vsBaseline: Comparison | null;
}

/** What differs within a group among the merged keys; `approx` reads as "approx.". */
function mergedDetail(series: BoardSeries, varying: readonly string[]): string {
  return varying
    .map((key) => {
      if (key === "approx") return series.params.approx === true ? "approx." : "";
      return `${key}=${paramText(series, key)}`;
    })
    .filter(Boolean)
    .join(" · ");
}

/** A group ranked best first by the metric's direction, with bars and factors. */
export function rankBoard(
  group: BoardGroup,
  ignore: readonly string[],
  baselineId: number | null,
): BoardEntry[] {
  const first = group.series[0];
  if (!first) return [];
  const { direction, base_unit: baseUnit } = first;
  const ranked = group.series
    .filter((s): s is BoardSeries & { latest: NonNullable<BoardSeries["latest"]> } => s.latest !== null)
    .sort((a, b) =>
      direction === "higher"
        ? b.latest.value_base - a.latest.value_base
        : a.latest.value_base - b.latest.value_base,
    );
  const best = ranked[0]?.latest.value_base ?? 0;
  const largest = Math.max(...ranked.map((s) => s.latest.value_base));
  const baseline = ranked.find((s) => s.id === baselineId)?.latest.value_base;
  const varying = ignore.filter((key) => new Set(ranked.map((s) => paramText(s, key))).size > 1);
  return ranked.map((s, index) => ({
    series: s,
    rank: index + 1,
    label: implementationLabel(s),
    detail: mergedDetail(s, varying),
    value: s.latest.value_base,
    bar: largest > 0 ? s.latest.value_base / largest : 0,
    vsBest:
      best > 0
        ? compareRatio(s.latest.value_base / best, direction, baseUnit)
        : { factor: 1, verdict: "same", better: null },
    vsBaseline:
      baseline !== undefined && baseline > 0
        ? compareRatio(s.latest.value_base / baseline, direction, baseUnit)
        : null,
  }));
}

/** The group a board opens on: the one asked for, else the one with most series. */
export function chooseGroup(groups: readonly BoardGroup[], wanted: string): BoardGroup | null {
  return (
    groups.find((g) => g.key === wanted) ??
    [...groups].sort((a, b) => b.series.length - a.series.length)[0] ??
    null
  );
}

/** The factor column: against the baseline when one is chosen ("baseline" on its own row), else against the best. */
export function factorText(entry: BoardEntry, baselineId: number | null): string {
  if (baselineId !== null) {
    if (entry.series.id === baselineId) return "baseline";
    return entry.vsBaseline ? comparisonText(entry.vsBaseline) : "";
  }
  return entry.rank === 1 ? "best" : comparisonText(entry.vsBest);
}
