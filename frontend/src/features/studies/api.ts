import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";

export const suitesQuery = () =>
  queryOptions({
    queryKey: ["suites"],
    queryFn: ({ signal }) => unwrap(api.GET("/api/v1/suites", { signal })),
  });
