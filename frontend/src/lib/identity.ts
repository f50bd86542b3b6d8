/** Readable names for the parts of a series identity. */

import type { SeriesIdentity } from "../api/types";
import { MODES } from "../api/vocabulary";

export type Params = SeriesIdentity["params"];

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
