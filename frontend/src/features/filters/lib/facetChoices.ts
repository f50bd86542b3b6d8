/** Which values a facet lists: the first few, those matching a search, and always the chosen ones. */
import type { FacetValue } from "../../../api/types";

/** Values listed before "Show all" or a search. */
export const SHOWN = 8;
/** At most this many search matches are listed: a long facet is searched, not scrolled. */
export const MATCHES_SHOWN = 50;
/** Facets longer than this get a search box. */
export const SEARCH_ABOVE = 12;

export interface FacetChoices {
  /** The values to list, in the service's order, chosen values included. */
  listed: FacetValue[];
  /** How many values the facet has in all (chosen values no longer offered included). */
  total: number;
  /** Values matching the search (all without one) that the limit left out of `listed`. */
  hidden: number;
}

/**
 * The values of a facet to list. Chosen values the service no longer offers (none left under the
 * other filters) are kept with a count of 0 so they can be unticked. `query` matches anywhere in a
 * value, ignoring case; without it the first SHOWN values are listed, or all when `expanded`.
 */
export function facetChoices(
  values: readonly FacetValue[],
  selected: readonly string[],
  { query = "", expanded = false }: { query?: string; expanded?: boolean } = {},
): FacetChoices {
  const offered = new Set(values.map((f) => f.value));
  const all = [...values, ...selected.filter((v) => !offered.has(v)).map((value) => ({ value, count: 0 }))];
  const needle = query.trim().toLowerCase();
  const matching = needle ? all.filter((f) => f.value.toLowerCase().includes(needle)) : all;
  const limit = needle ? MATCHES_SHOWN : expanded ? Number.POSITIVE_INFINITY : SHOWN;
  const chosen = new Set(selected);
  const shown = new Set(matching.slice(0, limit).map((f) => f.value));
  const listed = all.filter((f) => shown.has(f.value) || chosen.has(f.value));
  const hidden = matching.filter((f) => !shown.has(f.value) && !chosen.has(f.value)).length;
  return { listed, total: all.length, hidden };
}
