import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";

/** Points the service keeps at most per series; it downsamples longer histories to this many. */
export const MAX_POINTS = 1000;

export interface HistoryRange {
  since?: string;
  until?: string;
}

export const historyQuery = (seriesId: number, range: HistoryRange) =>
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
