/**
 * View state ⇄ URL search params ⇄ API query. The URL is the single source of truth: the facet
 * filters of Explore and Sync vs async, and the series and dates of History.
 */
import type { SeriesQuery } from "../api/types";

/** The facet dimensions, each a repeatable query parameter of the series, facets and modes endpoints. */
export const DIMENSIONS = [
  "suite",
  "benchmark",
  "language",
  "implementation",
  "mode",
  "variant",
  "hardware",
  "metric",
] as const satisfies readonly (keyof SeriesQuery)[];

export type Dimension = (typeof DIMENSIONS)[number];

/** Inclusive dates, YYYY-MM-DD (UTC); "" when open. */
export interface DateRange {
  since: string;
  until: string;
}

export interface Filters extends DateRange {
  values: Record<Dimension, string[]>;
  /** One branch; "" for each suite's default branch. */
  branch: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function parseDateRange(params: URLSearchParams): DateRange {
  const since = params.get("since") ?? "";
  const until = params.get("until") ?? "";
  return { since: DATE.test(since) ? since : "", until: DATE.test(until) ? until : "" };
}

function writeDateRange(range: DateRange, next: URLSearchParams) {
  for (const key of ["since", "until"] as const) {
    next.delete(key);
    if (range[key]) next.set(key, range[key]);
  }
}

/** The API's times for a range of whole days: the start of `since` and the end of `until` (UTC). */
export function dateRangeQuery(range: DateRange): Pick<SeriesQuery, "since" | "until"> {
  const query: Pick<SeriesQuery, "since" | "until"> = {};
  if (range.since) query.since = `${range.since}T00:00:00Z`;
  if (range.until) query.until = `${range.until}T23:59:59.999Z`;
  return query;
}

export function emptyFilters(): Filters {
  const values = Object.fromEntries(DIMENSIONS.map((d) => [d, []])) as unknown as Filters["values"];
  return { values, branch: "", since: "", until: "" };
}

export function parseFilters(params: URLSearchParams): Filters {
  const filters = emptyFilters();
  for (const dimension of DIMENSIONS) {
    filters.values[dimension] = [...new Set(params.getAll(dimension).filter(Boolean))];
  }
  return { ...filters, branch: params.get("branch") ?? "", ...parseDateRange(params) };
}

/** Writes the filters into a copy of `base`, keeping its other keys (sorting, selection). */
export function writeFilters(filters: Filters, base = new URLSearchParams()): URLSearchParams {
  const next = new URLSearchParams(base);
  for (const dimension of DIMENSIONS) {
    next.delete(dimension);
    for (const value of filters.values[dimension]) next.append(dimension, value);
  }
  next.delete("branch");
  if (filters.branch) next.set("branch", filters.branch);
  writeDateRange(filters, next);
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
  return values + [filters.branch, filters.since, filters.until].filter(Boolean).length;
}

export type FilterQuery = Pick<SeriesQuery, Dimension | "branch" | "since" | "until">;

/** The API query: repeated values per dimension, sorted; dates as dateRangeQuery gives them. */
export function toApiQuery(filters: Filters): FilterQuery {
  const query: FilterQuery = {};
  for (const dimension of DIMENSIONS) {
    const values = filters.values[dimension];
    if (values.length) query[dimension] = [...values].sort();
  }
  if (filters.branch) query.branch = filters.branch;
  return { ...query, ...dateRangeQuery(filters) };
}

/** The filters for an export's header. */
export function filtersRecord(filters: Filters): Record<string, string | string[]> {
  return { ...filters.values, branch: filters.branch, since: filters.since, until: filters.until };
}

/** What the History page shows: series by id, in the URL's order, and a date range. */
export interface HistoryFilters extends DateRange {
  series: number[];
}

/** Reads the History page's URL, dropping ids that are not whole numbers and repeats. */
export function parseHistoryFilters(params: URLSearchParams): HistoryFilters {
  const ids = params.getAll("series").filter((id) => /^\d+$/.test(id));
  return { series: [...new Set(ids.map(Number))], ...parseDateRange(params) };
}

/** Writes the History page's state into a copy of `base`, keeping its other keys (sorting). */
export function writeHistoryFilters(filters: HistoryFilters, base = new URLSearchParams()): URLSearchParams {
  const next = new URLSearchParams(base);
  next.delete("series");
  for (const id of filters.series) next.append("series", String(id));
  writeDateRange(filters, next);
  return next;
}

/** The History page of these series: "/history?series=3&series=7". Every link there is built here. */
export function historyHref(series: readonly number[]): string {
  return `/history?${writeHistoryFilters({ series: [...series], since: "", until: "" })}`;
}
