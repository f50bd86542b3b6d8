/** The Regressions page's filters ⇄ its URL. */
import type { RegressionQuery } from "../../../api/types";
import { CHANGE_DIRECTIONS, TRIAGE_STATUSES } from "../../../api/vocabulary";

const KEYS = ["status", "direction", "suite", "language", "cursor"] as const;

/** The list's filters, as the service's query takes them; `cursor` is the page after it (none: newest). */
export type RegressionFilters = { [Key in (typeof KEYS)[number]]?: NonNullable<RegressionQuery[Key]> };

const isStatus = (v: string): v is (typeof TRIAGE_STATUSES)[number] =>
  (TRIAGE_STATUSES as readonly string[]).includes(v);
const isDirection = (v: string): v is (typeof CHANGE_DIRECTIONS)[number] =>
  (CHANGE_DIRECTIONS as readonly string[]).includes(v);

/** Reads the filters, dropping values the service would refuse. */
export function parseRegressionFilters(params: URLSearchParams): RegressionFilters {
  const filters: RegressionFilters = {};
  const status = params.get("status") ?? "";
  const direction = params.get("direction") ?? "";
  if (isStatus(status)) filters.status = status;
  if (isDirection(direction)) filters.direction = direction;
  for (const key of ["suite", "language", "cursor"] as const) {
    const value = params.get(key)?.trim();
    if (value) filters[key] = value;
  }
  return filters;
}

/**
 * The URL after setting one filter; any other change than paging starts again from the newest,
 * since a cursor belongs to the filters it was issued under.
 */
export function setRegressionFilter(
  params: URLSearchParams,
  key: (typeof KEYS)[number],
  value: string | undefined,
): URLSearchParams {
  const next = new URLSearchParams(params);
  if (value) next.set(key, value);
  else next.delete(key);
  if (key !== "cursor") next.delete("cursor");
  return next;
}
