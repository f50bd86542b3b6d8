/** Readable names for the parts of a series identity. */

import type { SeriesIdentity } from "../api/types";

export type Params = Record<string, unknown>;

/** What a chart needs of a series: the service's identity, keyed by any id the chart uses. */
export type ChartSeriesIdentity = Omit<SeriesIdentity, "id" | "unit" | "params"> & {
  id: number | string;
  params: Params;
};

/** "writes=10000, payload_bytes=13" in the order the keys were given; "" for none. */
export function formatParams(params: Params | null | undefined): string {
  if (!params) return "";
  return Object.entries(params)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(", ");
}

/** "file-write-tiny (writes=10000, payload_bytes=13)". */
export function workloadLabel(benchmark: string, params: Params | null | undefined): string {
  const text = formatParams(params);
  return text ? `${benchmark} (${text})` : benchmark;
}

export interface Implementation {
  language: string;
  implementation?: string | null;
  mode?: string | null;
  variant?: string | null;
}

/** "dart · dart:io · async · sequential", leaving out the parts a result does not have. */
export function implementationLabel(item: Implementation): string {
  return [item.language, item.implementation, item.mode, item.variant].filter(Boolean).join(" · ");
}
