/** Addresses of pages that several features link to. */

/** A study's page. */
export const studyHref = (suite: string) => `/studies/${encodeURIComponent(suite)}`;

/** A run's page. */
export const runHref = (runId: string) => `/runs/${encodeURIComponent(runId)}`;
