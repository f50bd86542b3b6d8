/** Shapes sync/async pairs into ratio bars on a log scale, one section per language. */
import type { ModePair, ModeSide } from "../../../api/types";
import { languageColor } from "../../../lib/colors";
import { formatParams, type Params, workloadLabel } from "../../../lib/identity";
import { describeRatio, type RatioInterval, type RatioWording } from "./ratio";

export interface RatioRow {
  key: string;
  ratio: number;
  label: string;
  /** log10 of async/sync: bars start at 0 (= 1.0×). */
  logRatio: number;
  /** Offsets below and above logRatio to the interval ends, in log10 units. */
  error: [number, number] | null;
  wording: RatioWording;
  interval: RatioInterval | null;
  pair: ModePair;
}

export interface WorkloadGroup {
  key: string;
  /** "file-write-tiny (writes=10000, payload_bytes=13)", with the hardware when several are shown. */
  title: string;
  /** The sides every row compares ("dart:io sequential"), or "" when rows differ and name their own. */
  sides: string;
  rows: RatioRow[];
}

export interface RatioSection {
  language: string;
  color: string;
  groups: WorkloadGroup[];
  /** Every row of the section, in group order. */
  rows: RatioRow[];
}

/** A side's implementation, variant and the params it does not share with the pair. */
function describeSide(side: ModeSide, shared: Params): string {
  const extra = Object.fromEntries(
    Object.entries(side.params).filter(([key, value]) => shared[key] !== value),
  );
  return [side.implementation, side.variant, formatParams(extra, " ")].filter(Boolean).join(" ");
}

/**
 * What is compared: "dart:io sequential" when both sides run the same implementation and
 * variant, else "async fio/posixaio iodepth=32 vs sync fio/sync".
 */
export function sidesLabel(pair: ModePair): string {
  const a = describeSide(pair.async, pair.params);
  const s = describeSide(pair.sync, pair.params);
  return a === s ? a : `async ${a || "(default)"} vs sync ${s || "(default)"}`;
}

function toRow(pair: ModePair, ratio: number): RatioRow {
  const interval = pair.interval;
  const logRatio = Math.log10(ratio);
  return {
    key: `${pair.sync.series_id}:${pair.async.series_id}`,
    ratio,
    label: `${pair.metric} · ${sidesLabel(pair)}`,
    logRatio,
    error: interval ? [logRatio - Math.log10(interval.low), Math.log10(interval.high) - logRatio] : null,
    wording: describeRatio(ratio, pair.direction, pair.base_unit, pair.metric),
    interval,
    pair,
  };
}

function workloadKey(pair: ModePair): string {
  return JSON.stringify([pair.suite, pair.hardware, pair.benchmark, pair.params]);
}

/** When every row compares the same sides, say so once in the heading and keep row labels to the metric. */
function buildWorkload(key: string, rows: RatioRow[], showHardware: boolean): WorkloadGroup {
  const first = (rows[0] as RatioRow).pair;
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
export function buildRatioSections(pairs: readonly ModePair[]): RatioSection[] {
  const showHardware = new Set(pairs.map((p) => p.hardware)).size > 1;
  const byLanguage = new Map<string, Map<string, RatioRow[]>>();
  for (const pair of pairs) {
    const ratio = pair.async_over_sync;
    if (ratio === null || !(ratio > 0) || !Number.isFinite(ratio)) continue;
    const workloads = byLanguage.get(pair.language) ?? new Map<string, RatioRow[]>();
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

/** Every row of every section, in section order: the table under the charts. */
export const allRatioRows = (sections: readonly RatioSection[]): RatioRow[] =>
  sections.flatMap((s) => s.rows);
