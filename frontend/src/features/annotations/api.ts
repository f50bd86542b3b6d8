import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { AnnotationIn } from "../../api/types";
import { bearer } from "../../lib/maintainerToken";

/** Every note that applies to a series: its own, its suite's and its machine's. */
export const seriesAnnotationsQuery = (seriesId: number) =>
  queryOptions({
    queryKey: ["annotations", seriesId],
    queryFn: ({ signal }) =>
      unwrap(api.GET("/api/v1/annotations", { params: { query: { series_id: seriesId } }, signal })),
  });

export const createAnnotation = (annotation: AnnotationIn, token: string) =>
  unwrap(api.POST("/api/v1/annotations", { body: annotation, headers: bearer(token) }));
