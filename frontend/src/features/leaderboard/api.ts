import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { allPages } from "../../api/pages";
import type { BoardView } from "../../lib/board";

const PAGE = 1000;

/** Every series of one benchmark and metric of a suite, with its latest value. */
export const boardSeriesQuery = ({
  suite,
  benchmark,
  metric,
}: Pick<BoardView, "suite" | "benchmark" | "metric">) =>
  queryOptions({
    queryKey: ["series", { suite, benchmark, metric }],
    queryFn: ({ signal }) =>
      allPages((cursor) =>
        unwrap(
          api.GET("/api/v1/series", {
            params: {
              query: { suite: [suite], benchmark: [benchmark], metric: [metric], limit: PAGE, cursor },
            },
            signal,
          }),
        ),
      ),
    enabled: Boolean(suite && benchmark && metric),
  });

/** The benchmarks and metrics of a suite, for choosing a board. */
export const boardFacetsQuery = (suite: string, benchmark: string) =>
  queryOptions({
    queryKey: ["facets", "board", suite, benchmark],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/facets", {
          params: { query: { suite: suite ? [suite] : [], benchmark: benchmark ? [benchmark] : [] } },
          signal,
        }),
      ),
  });
