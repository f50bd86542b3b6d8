import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { allPages } from "../../api/pages";
import { SERIES_PAGE_MAX } from "../../api/vocabulary";
import { type Filters, toApiQuery } from "../../lib/filters";

/** Every series matching the filters, with its latest value. */
export const seriesQuery = (filters: Filters) => {
  const query = toApiQuery(filters);
  return queryOptions({
    queryKey: ["series", query],
    queryFn: ({ signal }) =>
      allPages((cursor) =>
        unwrap(
          api.GET("/api/v1/series", {
            params: { query: { ...query, limit: SERIES_PAGE_MAX, cursor } },
            signal,
          }),
        ),
      ),
    placeholderData: keepPreviousData,
  });
};
