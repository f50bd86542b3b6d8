/** Filter state ⇄ URL search params ⇄ API query. The URL is the single source of truth. */

export const DIMENSIONS = [
  "suite",
  "benchmark",
  "language",
  "implementation",
  "mode",
  "variant",
  "hardware",
  "metric",
] as const;

export type Dimension = (typeof DIMENSIONS)[number];

export interface Filters {
  values: Record<Dimension, string[]>;
  /** Inclusive dates, YYYY-MM-DD (UTC); "" when open. */
  since: string;
  until: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function emptyFilters(): Filters {
  const values = Object.fromEntries(DIMENSIONS.map((d) => [d, []])) as unknown as Filters["values"];
  return { values, since: "", until: "" };
}

export function parseFilters(params: URLSearchParams): Filters {
  const filters = emptyFilters();
  for (const dimension of DIMENSIONS) {
    filters.values[dimension] = [...new Set(params.getAll(dimension).filter(Boolean))];
  }
  const since = params.get("since") ?? "";
  const until = params.get("until") ?? "";
  filters.since = DATE.test(since) ? since : "";
  filters.until = DATE.test(until) ? until : "";
  return filters;
}

/** Writes the filters into a copy of `base`, keeping its other keys (sorting, selection). */
export function writeFilters(filters: Filters, base = new URLSearchParams()): URLSearchParams {
  const next = new URLSearchParams(base);
  for (const dimension of DIMENSIONS) {
    next.delete(dimension);
    for (const value of filters.values[dimension]) next.append(dimension, value);
  }
  for (const key of ["since", "until"] as const) {
    next.delete(key);
    if (filters[key]) next.set(key, filters[key]);
  }
  return next;
}

export function toggleValue(filters: Filters, dimension: Dimension, value: string): Filters {
  const current = filters.values[dimension];
  const values = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
  return { ...filters, values: { ...filters.values, [dimension]: values } };
}

export function clearDimension(filters: Filters, dimension: Dimension): Filters {
  return { ...filters, values: { ...filters.values, [dimension]: [] } };
}

export function activeCount(filters: Filters): number {
  const values = DIMENSIONS.reduce((n, d) => n + filters.values[d].length, 0);
  return values + (filters.since ? 1 : 0) + (filters.until ? 1 : 0);
}

export interface FilterQuery extends Partial<Record<Dimension, string[]>> {
  since?: string;
  until?: string;
}

/** The API query: repeated values per dimension; dates as the start of `since` and the end of `until` (UTC). */
export function toApiQuery(filters: Filters): FilterQuery {
  const query: FilterQuery = {};
  for (const dimension of DIMENSIONS) {
    const values = filters.values[dimension];
    if (values.length) query[dimension] = [...values].sort();
  }
  if (filters.since) query.since = `${filters.since}T00:00:00Z`;
  if (filters.until) query.until = `${filters.until}T23:59:59.999Z`;
  return query;
}

/** The filters for an export's header. */
export function filtersRecord(filters: Filters): Record<string, string | string[]> {
  return { ...filters.values, since: filters.since, until: filters.until };
}
