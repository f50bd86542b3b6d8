/** Addresses of pages (and files) that several features link to, each part encoded. */

/** A study's page. */
export const studyHref = (suite: string) => `/studies/${encodeURIComponent(suite)}`;

/** A run's page. */
export const runHref = (runId: string) => `/runs/${encodeURIComponent(runId)}`;

/** The raw upload of a run, as it was sent. */
export const uploadHref = (runId: string) => `/api/v1/runs/${encodeURIComponent(runId)}/upload`;

/** The comparison of two runs: what changed from `baseline` to `contender`. */
export const compareHref = (baseline: string, contender: string) =>
  `/compare?${new URLSearchParams({ baseline, contender })}`;
