import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { allPages } from "../../api/pages";
import type { RunListQuery } from "../../api/types";
import { POLL_WHILE_PENDING_MS } from "../../components/Status";

export const runQuery = (runId: string) =>
  queryOptions({
    queryKey: ["run", runId],
    queryFn: ({ signal }) =>
      unwrap(api.GET("/api/v1/runs/{run_id}", { params: { path: { run_id: runId } }, signal })),
    refetchInterval: (query) => (query.state.data?.detection_pending_series ? POLL_WHILE_PENDING_MS : false),
  });

export const runsQuery = (filter: Pick<RunListQuery, "suite" | "branch" | "hardware">) =>
  queryOptions({
    queryKey: ["runs", filter],
    queryFn: ({ signal }) =>
      allPages((cursor) =>
        unwrap(api.GET("/api/v1/runs", { params: { query: { ...filter, limit: 200, cursor } }, signal })),
      ),
  });
