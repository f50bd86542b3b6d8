/** Shapes sync/async pairs into ratio bars on a log scale, one section per language. */
import { languageColor } from "../../../lib/colors";
import { type Params, workloadLabel } from "../../../lib/identity";
import { describeRatio, type RatioInterval, type RatioWording, ratioInterval, type SideLike } from "./ratio";

export interface PairSide extends SideLike {
  variant?: string | null;
  series_id: number | string;
  run_id: string;
}

export interface PairLike {
  suite: string;
  benchmark: string;
  params: Params;
  language: string;
  implementation?: string | null;
  hardware: string;
  metric: string;
  base_unit: string;
  direction: string;
  sync: PairSide;
  async: PairSide;
  async_over_sync: number;
}

export interface RatioRow<P extends PairLike = PairLike> {
  key: string;
  ratio: number;
  label: string;
  /** log10 of async/sync: bars start at 0 (= 1.0×). */
  logRatio: number;
  /** Offsets below and above logRatio to the interval ends, in log10 units. */
  error: [number, number] | null;
  wording: RatioWording;
  interval: RatioInterval | null;
  pair: P;
}

export interface RatioSection<P extends PairLike = PairLike> {
  language: string;
  color: string;
  rows: RatioRow<P>[];
}

/** "sequential", or "async future-wait-3 vs sync sequential" when the variants differ. */
export function variantLabel(pair: PairLike): string {
  const a = pair.async.variant ?? null;
  const s = pair.sync.variant ?? null;
  if (a === s) return a ?? "";
  return `async ${a ?? "(none)"} vs sync ${s ?? "(none)"}`;
}

function rowLabel(pair: PairLike, showHardware: boolean): string {
  return [
    workloadLabel(pair.benchmark, pair.params),
    pair.metric,
    pair.implementation,
    variantLabel(pair),
    showHardware ? pair.hardware : "",
  ]
    .filter(Boolean)
    .join(" · ");
}

function toRow<P extends PairLike>(pair: P, showHardware: boolean): RatioRow<P> {
  const ratio = pair.async_over_sync;
  const interval = ratioInterval(pair.sync, pair.async, ratio);
  const logRatio = Math.log10(ratio);
  return {
    key: `${pair.sync.series_id}:${pair.async.series_id}`,
    ratio,
    label: rowLabel(pair, showHardware),
    logRatio,
    error: interval ? [logRatio - Math.log10(interval.low), Math.log10(interval.high) - logRatio] : null,
    wording: describeRatio(ratio, pair.direction, pair.base_unit),
    interval,
    pair,
  };
}

/** Sections by language; rows by workload, metric and implementation. Pairs without a positive ratio are left out. */
export function buildRatioSections<P extends PairLike>(pairs: readonly P[]): RatioSection<P>[] {
  const showHardware = new Set(pairs.map((p) => p.hardware)).size > 1;
  const byLanguage = new Map<string, RatioRow<P>[]>();
  for (const pair of pairs) {
    if (!(pair.async_over_sync > 0) || !Number.isFinite(pair.async_over_sync)) continue;
    byLanguage.set(pair.language, [...(byLanguage.get(pair.language) ?? []), toRow(pair, showHardware)]);
  }
  return [...byLanguage.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([language, rows]) => ({
      language,
      color: languageColor(language),
      rows: rows.sort((a, b) => a.label.localeCompare(b.label, "en", { numeric: true })),
    }));
}
