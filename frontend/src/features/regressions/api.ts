import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { AlertGroupQuery, RegressionTriage } from "../../api/types";
import { POLL_WHILE_PENDING_MS } from "../../components/Status";
import { bearer } from "../../lib/maintainerToken";
import type { RegressionFilters } from "./lib/filters";

/** Regressions a page of the list shows. */
export const PAGE_SIZE = 50;

export const regressionsQuery = (filters: RegressionFilters) =>
  queryOptions({
    queryKey: ["regressions", "list", filters],
    queryFn: ({ signal }) =>
      unwrap(api.GET("/api/v1/regressions", { params: { query: { ...filters, limit: PAGE_SIZE } }, signal })),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.detection_pending_series ? POLL_WHILE_PENDING_MS : false),
  });

/** Every change detected on one series, for its history chart (a few at most, so one page). */
export const seriesRegressionsQuery = (seriesId: number) =>
  queryOptions({
    queryKey: ["regressions", "series", seriesId],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/regressions", { params: { query: { series_id: seriesId, limit: 500 } }, signal }),
      ),
  });

/** Whether change detection still has one series queued (1) or not (0): asked again every few seconds while it has. */
export const seriesPendingQuery = (seriesId: number) =>
  queryOptions({
    queryKey: ["regressions", "pending", seriesId],
    queryFn: async ({ signal }) => {
      const query = { series_id: seriesId, limit: 1 };
      const page = await unwrap(api.GET("/api/v1/regressions", { params: { query }, signal }));
      return page.detection_pending_series;
    },
    refetchInterval: (query) => (query.state.data ? POLL_WHILE_PENDING_MS : false),
  });

/** What change detection can see in one series now: runs, noise, reach, or runs still needed. */
export const seriesDetectionQuery = (seriesId: number) =>
  queryOptions({
    queryKey: ["regressions", "detection", seriesId],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/series/{series_id}/detection", {
          params: { path: { series_id: seriesId } },
          signal,
        }),
      ),
  });

export const regressionQuery = (id: number) =>
  queryOptions({
    queryKey: ["regressions", "one", id],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/regressions/{regression_id}", { params: { path: { regression_id: id } }, signal }),
      ),
  });

/** The series' runs around a change, each side's spread and the commit range, for its chart. */
export const regressionContextQuery = (id: number) =>
  queryOptions({
    queryKey: ["regressions", "context", id],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/regressions/{regression_id}/context", {
          params: { path: { regression_id: id } },
          signal,
        }),
      ),
  });

export const auditTrailQuery = (id: number) =>
  queryOptions({
    queryKey: ["regressions", "audit", id],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/regressions/{regression_id}/history", {
          params: { path: { regression_id: id } },
          signal,
        }),
      ),
  });

/** Sends a maintainer's triage; the service answers 401/403 for a missing or weaker token. */
export const triageRegression = (id: number, triage: RegressionTriage, token: string) =>
  unwrap(
    api.PATCH("/api/v1/regressions/{regression_id}", {
      params: { path: { regression_id: id } },
      body: triage,
      headers: bearer(token),
    }),
  );

/** Alert groups (the changes of one cause), newest first. */
export const alertGroupsQuery = (filters: AlertGroupQuery) =>
  queryOptions({
    queryKey: ["regressions", "groups", filters],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/alert-groups", { params: { query: { ...filters, limit: PAGE_SIZE } }, signal }),
      ),
    placeholderData: keepPreviousData,
  });

/** One alert group with every change and its evidence. */
export const alertGroupQuery = (id: number) =>
  queryOptions({
    queryKey: ["regressions", "group", id],
    queryFn: ({ signal }) =>
      unwrap(api.GET("/api/v1/alert-groups/{group_id}", { params: { path: { group_id: id } }, signal })),
  });

/** Whether triage keeps up: median time to triage, share within 3 days, oldest group waiting. */
export const triageHealthQuery = (suite: string | undefined) =>
  queryOptions({
    queryKey: ["regressions", "health", suite],
    queryFn: ({ signal }) =>
      unwrap(api.GET("/api/v1/alert-groups/health", { params: { query: suite ? { suite } : {} }, signal })),
  });

/** Triages every untriaged change of a group in one request. */
export const triageAlertGroup = (id: number, triage: RegressionTriage, token: string) =>
  unwrap(
    api.PATCH("/api/v1/alert-groups/{group_id}", {
      params: { path: { group_id: id } },
      body: triage,
      headers: bearer(token),
    }),
  );

/** Moves a change to another alert group of its suite, or (null) sets it apart: a different cause. */
export const moveChange = (id: number, groupId: number | null, token: string) =>
  unwrap(
    api.PUT("/api/v1/regressions/{regression_id}/group", {
      params: { path: { regression_id: id } },
      body: { group_id: groupId },
      headers: bearer(token),
    }),
  );
