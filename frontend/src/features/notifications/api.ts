import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { NotificationSettings } from "../../api/types";
import { bearer } from "../../lib/maintainerToken";

/** Where a suite's alert groups are announced, URLs masked as the service masks them (maintainers only). */
export const notificationsQuery = (suite: string, token: string) =>
  queryOptions({
    queryKey: ["notifications", suite, token],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/suites/{suite}/notifications", {
          params: { path: { suite } },
          headers: bearer(token),
          signal,
        }),
      ),
    enabled: token !== "",
  });

/** Replaces the suite's targets: kept ones by id (their URLs stay secret), new ones by URL. */
export const saveNotifications = (suite: string, body: NotificationSettings, token: string) =>
  unwrap(
    api.PUT("/api/v1/suites/{suite}/notifications", {
      params: { path: { suite } },
      body,
      headers: bearer(token),
    }),
  );
