import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { FindingsUpdate, SuiteUpdate } from "../../api/types";
import { bearer } from "../../lib/maintainerToken";

export const suitesQuery = () =>
  queryOptions({
    queryKey: ["suites"],
    queryFn: ({ signal }) => unwrap(api.GET("/api/v1/suites", { signal })),
  });

export const studyQuery = (suite: string) =>
  queryOptions({
    queryKey: ["study", suite],
    queryFn: ({ signal }) =>
      unwrap(api.GET("/api/v1/suites/{suite}/study", { params: { path: { suite } }, signal })),
  });

/** A run's results, to pick a finding's sides from. */
export const runResultsQuery = (runId: string) =>
  queryOptions({
    queryKey: ["run", runId],
    queryFn: ({ signal }) =>
      unwrap(api.GET("/api/v1/runs/{run_id}", { params: { path: { run_id: runId } }, signal })),
    enabled: Boolean(runId),
  });

export const updateStudy = (suite: string, update: SuiteUpdate, token: string) =>
  unwrap(
    api.PUT("/api/v1/suites/{suite}", { params: { path: { suite } }, body: update, headers: bearer(token) }),
  );

export const replaceFindings = (suite: string, update: FindingsUpdate, token: string) =>
  unwrap(
    api.PUT("/api/v1/suites/{suite}/findings", {
      params: { path: { suite } },
      body: update,
      headers: bearer(token),
    }),
  );

/** How to cite the study, as the service writes it (BibTeX or CITATION.cff). */
export const citationQuery = (suite: string, format: "bibtex" | "cff") =>
  queryOptions({
    queryKey: ["citation", suite, format],
    queryFn: ({ signal }) =>
      unwrap<string>(
        api.GET("/api/v1/suites/{suite}/citation", {
          params: { path: { suite }, query: { format } },
          parseAs: "text",
          signal,
        }),
      ),
  });
