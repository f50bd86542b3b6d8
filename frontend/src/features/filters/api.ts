import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { type Filters, toApiQuery } from "../../lib/filters";

export const facetsQuery = (filters: Filters) => {
  const query = toApiQuery(filters);
  return queryOptions({
    queryKey: ["facets", query],
    queryFn: ({ signal }) => unwrap(api.GET("/api/v1/facets", { params: { query }, signal })),
    placeholderData: keepPreviousData,
  });
};
