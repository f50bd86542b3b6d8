import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { HistoryQuery } from "../../api/types";
import { bearer } from "../../lib/maintainerToken";

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

/** A series' outliers, baseline reset and the record of every mark. */
export const seriesCurationQuery = (seriesId: number) =>
  queryOptions({
    queryKey: ["history", "curation", seriesId],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/series/{series_id}/curation", { params: { path: { series_id: seriesId } }, signal }),
      ),
  });

/** A maintainer's curation of one series: mark or restore an outlier, reset the baseline or undo it. */
export function curate(
  seriesId: number,
  token: string,
  action:
    | { kind: "mark" | "restore"; runId: string }
    | { kind: "reset"; runId: string }
    | { kind: "undo-reset" },
) {
  const headers = bearer(token);
  const path = { series_id: seriesId };
  switch (action.kind) {
    case "mark":
      return unwrap(
        api.PUT("/api/v1/series/{series_id}/outliers/{run_id}", {
          params: { path: { ...path, run_id: action.runId } },
          body: {},
          headers,
        }),
      );
    case "restore":
      return unwrap(
        api.DELETE("/api/v1/series/{series_id}/outliers/{run_id}", {
          params: { path: { ...path, run_id: action.runId } },
          headers,
        }),
      );
    case "reset":
      return unwrap(
        api.PUT("/api/v1/series/{series_id}/baseline-reset", {
          params: { path },
          body: { run_id: action.runId },
          headers,
        }),
      );
    case "undo-reset":
      return unwrap(api.DELETE("/api/v1/series/{series_id}/baseline-reset", { params: { path }, headers }));
  }
}
