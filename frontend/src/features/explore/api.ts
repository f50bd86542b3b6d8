import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { allPages } from "../../api/pages";
import { type Filters, toApiQuery } from "../../lib/filters";

const PAGE = 500;

/** Every series matching the filters, with its latest value. */
export const seriesQuery = (filters: Filters) => {
  const query = toApiQuery(filters);
  return queryOptions({
    queryKey: ["series", query],
    queryFn: ({ signal }) =>
      allPages((cursor) =>
        unwrap(api.GET("/api/v1/series", { params: { query: { ...query, limit: PAGE, cursor } }, signal })),
      ),
    placeholderData: keepPreviousData,
  });
};
