import { infiniteQueryOptions, keepPreviousData } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { type Filters, toApiQuery } from "../../lib/filters";
import { EXPLORE_PAGE } from "./page";

/**
 * The series matching the filters, a page at a time in the server's order (by upload): Explore
 * draws the first page's charts, and asks for the next page only when the reader does.
 */
export const seriesPagesQuery = (filters: Filters) => {
  const query = toApiQuery(filters);
  return infiniteQueryOptions({
    queryKey: ["series-pages", query],
    queryFn: ({ pageParam, signal }) =>
      unwrap(
        api.GET("/api/v1/series", {
          params: { query: { ...query, limit: EXPLORE_PAGE, cursor: pageParam } },
          signal,
        }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    placeholderData: keepPreviousData,
  });
};
