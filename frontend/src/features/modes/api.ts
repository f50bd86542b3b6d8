import { infiniteQueryOptions, keepPreviousData } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { type Filters, toApiQuery } from "../../lib/filters";

/** The sync/async pairs under the filters, a page at a time; the next when the reader asks. */
export const modePairsQuery = (filters: Filters) => {
  const query = toApiQuery(filters);
  return infiniteQueryOptions({
    queryKey: ["compare-modes", query],
    queryFn: ({ pageParam, signal }) =>
      unwrap(
        api.GET("/api/v1/compare/modes", { params: { query: { ...query, cursor: pageParam } }, signal }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    placeholderData: keepPreviousData,
  });
};
