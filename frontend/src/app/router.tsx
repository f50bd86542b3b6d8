import { createBrowserRouter, type LoaderFunctionArgs } from "react-router";
import { seriesPagesQuery } from "../features/explore/api";
import { facetsQuery } from "../features/filters/api";
import { modePairsQuery } from "../features/modes/api";
import { type Filters, parseFilters } from "../lib/filters";
import { Layout } from "./Layout";
import { NotFound } from "./NotFound";
import { queryClient } from "./queryClient";

/**
 * Starts a filtered view's requests while its code chunk downloads, instead of after.
 * Never waits for them: the page shows its own loading state.
 */
function prefetchFiltered(prefetchView: (filters: Filters) => Promise<void>) {
  return ({ request }: LoaderFunctionArgs) => {
    const filters = parseFilters(new URL(request.url).searchParams);
    void prefetchView(filters);
    void queryClient.prefetchQuery(facetsQuery(filters));
    return null;
  };
}

/** Each page is its own chunk, so the first load carries only the page it shows. */
export const router = createBrowserRouter([
  {
    path: "/",
    Component: Layout,
    children: [
      {
        index: true,
        lazy: async () => ({ Component: (await import("./routes/StudiesRoute")).StudiesRoute }),
      },
      {
        path: "studies/:suite",
        lazy: async () => ({ Component: (await import("./routes/StudyRoute")).StudyRoute }),
      },
      {
        path: "leaderboard",
        lazy: async () => ({ Component: (await import("./routes/LeaderboardRoute")).LeaderboardRoute }),
      },
      {
        path: "explore",
        loader: prefetchFiltered((f) => queryClient.prefetchInfiniteQuery(seriesPagesQuery(f))),
        lazy: async () => ({ Component: (await import("./routes/ExploreRoute")).ExploreRoute }),
      },
      {
        path: "modes",
        loader: prefetchFiltered((f) => queryClient.prefetchInfiniteQuery(modePairsQuery(f))),
        lazy: async () => ({ Component: (await import("./routes/ModesRoute")).ModesRoute }),
      },
      {
        path: "history",
        lazy: async () => ({ Component: (await import("./routes/HistoryRoute")).HistoryRoute }),
      },
      { path: "runs", lazy: async () => ({ Component: (await import("./routes/RunsRoute")).RunsRoute }) },
      {
        path: "tokens",
        lazy: async () => ({ Component: (await import("./routes/TokensRoute")).TokensRoute }),
      },
      {
        path: "runs/:runId",
        lazy: async () => ({ Component: (await import("./routes/RunRoute")).RunRoute }),
      },
      {
        path: "compare",
        lazy: async () => ({ Component: (await import("./routes/CompareRoute")).CompareRoute }),
      },
      {
        path: "regressions",
        // The query's code is fetched here too, beside the page's chunk, to keep it off the first load.
        loader: ({ request }: LoaderFunctionArgs) => {
          const params = new URL(request.url).searchParams;
          void Promise.all([
            import("../features/regressions/api"),
            import("../features/regressions/lib/filters"),
          ]).then(([{ regressionsQuery }, { parseRegressionFilters }]) =>
            queryClient.prefetchQuery(regressionsQuery(parseRegressionFilters(params))),
          );
          return null;
        },
        lazy: async () => ({ Component: (await import("./routes/RegressionsRoute")).RegressionsRoute }),
      },
      {
        path: "suites/:suite/notifications",
        lazy: async () => ({ Component: (await import("./routes/NotificationsRoute")).NotificationsRoute }),
      },
      {
        path: "regressions/groups/:groupId",
        lazy: async () => ({ Component: (await import("./routes/AlertGroupRoute")).AlertGroupRoute }),
      },
      {
        path: "regressions/:regressionId",
        lazy: async () => ({ Component: (await import("./routes/RegressionRoute")).RegressionRoute }),
      },
      { path: "*", Component: NotFound },
    ],
  },
]);
