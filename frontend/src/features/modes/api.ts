import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { type Filters, toApiQuery } from "../../lib/filters";

export const modePairsQuery = (filters: Filters) => {
  const query = toApiQuery(filters);
  return queryOptions({
    queryKey: ["compare-modes", query],
    queryFn: ({ signal }) => unwrap(api.GET("/api/v1/compare/modes", { params: { query }, signal })),
    placeholderData: keepPreviousData,
  });
};
