import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";

export const compareRunsQuery = (baseline: string, contender: string) =>
  queryOptions({
    queryKey: ["compare-runs", baseline, contender],
    queryFn: ({ signal }) =>
      unwrap(api.GET("/api/v1/compare/runs", { params: { query: { baseline, contender } }, signal })),
  });
