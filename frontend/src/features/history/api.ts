import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { HistoryQuery } from "../../api/types";

/** Points the service keeps at most per series; it downsamples longer histories to this many. */
export const MAX_POINTS = 1000;

export const historyQuery = (seriesId: number, range: Pick<HistoryQuery, "since" | "until">) =>
  queryOptions({
    queryKey: ["history", seriesId, range],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/series/{series_id}/history", {
          params: { path: { series_id: seriesId }, query: { ...range, max_points: MAX_POINTS } },
          signal,
        }),
      ),
  });
