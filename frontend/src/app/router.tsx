import { createBrowserRouter } from "react-router";
import { Layout } from "./Layout";
import { NotFound } from "./NotFound";

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
        path: "explore",
        lazy: async () => ({ Component: (await import("./routes/ExploreRoute")).ExploreRoute }),
      },
      { path: "modes", lazy: async () => ({ Component: (await import("./routes/ModesRoute")).ModesRoute }) },
      {
        path: "history",
        lazy: async () => ({ Component: (await import("./routes/HistoryRoute")).HistoryRoute }),
      },
      { path: "runs", lazy: async () => ({ Component: (await import("./routes/RunsRoute")).RunsRoute }) },
      {
        path: "runs/:runId",
        lazy: async () => ({ Component: (await import("./routes/RunRoute")).RunRoute }),
      },
      {
        path: "compare",
        lazy: async () => ({ Component: (await import("./routes/CompareRoute")).CompareRoute }),
      },
      { path: "*", Component: NotFound },
    ],
  },
]);
