/** Readable names for the parts of a series identity. */

import type { SeriesIdentity } from "../api/types";
import { MODES } from "../api/vocabulary";

export type Params = SeriesIdentity["params"];

/** One param as every label writes it: "writes=10000". */
export const formatParam = (key: string, value: unknown): string => `${key}=${String(value)}`;

/**
 * "writes=10000, payload_bytes=13" in the order the keys were given; "" for none. `separator`
 * for labels that join their parts another way ("writes=10000 payload_bytes=13").
 */
export function formatParams(params: Params | null | undefined, separator = ", "): string {
  if (!params) return "";
  return Object.entries(params)
    .map(([key, value]) => formatParam(key, value))
    .join(separator);
}

/** "file-write-tiny (writes=10000, payload_bytes=13)". */
export function workloadLabel(benchmark: string, params: Params | null | undefined): string {
  const text = formatParams(params);
  return text ? `${benchmark} (${text})` : benchmark;
}

export type Implementation = Pick<SeriesIdentity, "language" | "implementation" | "mode" | "variant">;

/** "dart · dart:io · async · sequential", leaving out the parts a result does not have. */
export function implementationLabel(item: Implementation): string {
  return [item.language, item.implementation, item.mode, item.variant].filter(Boolean).join(" · ");
}

/** Where a mode sorts: sync, then async (the vocabulary's order), then anything else or none. */
export function modeRank(mode: string | null): number {
  const index = (MODES as readonly (string | null)[]).indexOf(mode);
  return index === -1 ? MODES.length : index;
}

type Measured = Implementation & Pick<SeriesIdentity, "benchmark" | "params">;

/** What a series measures and how: "dart · dart:io · async — file-write-tiny (writes=10000)". */
export function seriesLabel(series: Measured): string {
  return `${implementationLabel(series)} — ${workloadLabel(series.benchmark, series.params)}`;
}

/** A series among others picked by id (chips, choices): "#12 dart · dart:io — write (n=1), latency". */
export function seriesChoiceLabel(
  series: Measured & Pick<SeriesIdentity, "metric"> & { id: number },
): string {
  return `#${series.id} ${seriesLabel(series)}, ${series.metric}`;
}
