/** Shapes sync/async pairs into ratio bars on a log scale, one section per language. */
import { languageColor } from "../../../lib/colors";
import { type Params, workloadLabel } from "../../../lib/identity";
import { describeRatio, type RatioInterval, type RatioWording, ratioInterval, type SideLike } from "./ratio";

export interface PairSide extends SideLike {
  implementation?: string | null;
  variant?: string | null;
  /** The side's own params; those that differ from the pair's are named. */
  params?: Params;
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
  async_over_sync: number | null;
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

export interface WorkloadGroup<P extends PairLike = PairLike> {
  key: string;
  /** "file-write-tiny (writes=10000, payload_bytes=13)", with the hardware when several are shown. */
  title: string;
  /** The sides every row compares ("dart:io sequential"), or "" when rows differ and name their own. */
  sides: string;
  rows: RatioRow<P>[];
}

export interface RatioSection<P extends PairLike = PairLike> {
  language: string;
  color: string;
  groups: WorkloadGroup<P>[];
  /** Every row of the section, in group order. */
  rows: RatioRow<P>[];
}

function describeSide(side: PairSide, shared: Params): string {
  const extra = Object.entries(side.params ?? {})
    .filter(([key, value]) => shared[key] !== value)
    .map(([key, value]) => `${key}=${String(value)}`);
  return [side.implementation, side.variant, ...extra].filter(Boolean).join(" ");
}

/**
 * What is compared: "dart:io sequential" when both sides run the same implementation and
 * variant, else "async fio/posixaio iodepth=32 vs sync fio/sync".
 */
export function sidesLabel(pair: PairLike): string {
  const a = describeSide({ implementation: pair.implementation, ...pair.async }, pair.params);
  const s = describeSide({ implementation: pair.implementation, ...pair.sync }, pair.params);
  return a === s ? a : `async ${a || "(default)"} vs sync ${s || "(default)"}`;
}

function toRow<P extends PairLike>(pair: P, ratio: number): RatioRow<P> {
  const interval = ratioInterval(pair.sync, pair.async, ratio);
  const logRatio = Math.log10(ratio);
  return {
    key: `${pair.sync.series_id}:${pair.async.series_id}`,
    ratio,
    label: `${pair.metric} · ${sidesLabel(pair)}`,
    logRatio,
    error: interval ? [logRatio - Math.log10(interval.low), Math.log10(interval.high) - logRatio] : null,
    wording: describeRatio(ratio, pair.direction, pair.base_unit),
    interval,
    pair,
  };
}

function workloadKey(pair: PairLike): string {
  return JSON.stringify([pair.suite, pair.hardware, pair.benchmark, pair.params]);
}

/** When every row compares the same sides, say so once in the heading and keep row labels to the metric. */
function buildWorkload<P extends PairLike>(
  key: string,
  rows: RatioRow<P>[],
  showHardware: boolean,
): WorkloadGroup<P> {
  const first = (rows[0] as RatioRow<P>).pair;
  const sides = new Set(rows.map((r) => sidesLabel(r.pair)));
  const shared = sides.size === 1 ? [...sides][0] : "";
  const title = [workloadLabel(first.benchmark, first.params), showHardware ? first.hardware : ""]
    .filter(Boolean)
    .join(" · ");
  return {
    key,
    title,
    sides: shared ?? "",
    rows: rows
      .map((r) => (shared ? { ...r, label: r.pair.metric } : r))
      .sort((a, b) => a.label.localeCompare(b.label, "en", { numeric: true })),
  };
}

/**
 * Sections by language, each with one group per workload (benchmark, params, hardware) and a row per
 * metric and pair of sides. Pairs without a positive ratio are left out.
 */
export function buildRatioSections<P extends PairLike>(pairs: readonly P[]): RatioSection<P>[] {
  const showHardware = new Set(pairs.map((p) => p.hardware)).size > 1;
  const byLanguage = new Map<string, Map<string, RatioRow<P>[]>>();
  for (const pair of pairs) {
    const ratio = pair.async_over_sync;
    if (ratio === null || !(ratio > 0) || !Number.isFinite(ratio)) continue;
    const workloads = byLanguage.get(pair.language) ?? new Map<string, RatioRow<P>[]>();
    workloads.set(workloadKey(pair), [...(workloads.get(workloadKey(pair)) ?? []), toRow(pair, ratio)]);
    byLanguage.set(pair.language, workloads);
  }
  return [...byLanguage.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([language, workloads]) => {
      const groups = [...workloads.entries()]
        .map(([key, rows]) => buildWorkload(key, rows, showHardware))
        .sort((a, b) => a.title.localeCompare(b.title, "en", { numeric: true }));
      return { language, color: languageColor(language), groups, rows: groups.flatMap((g) => g.rows) };
    });
}
