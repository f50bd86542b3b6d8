/** Names for the generated API payloads, derived from `paths` so they follow the schema. */
import type { paths } from "./schema";

type JsonOk<Op> = Op extends { responses: { 200: { content: { "application/json": infer T } } } } ? T : never;
type Get<P extends keyof paths> = paths[P] extends { get: infer Op } ? JsonOk<Op> : never;
type JsonBody<Op> = Op extends { requestBody?: { content: { "application/json": infer T } } } ? T : never;
type Patch<P extends keyof paths> = paths[P] extends { patch: infer Op } ? JsonBody<Op> : never;
type Post<P extends keyof paths> = paths[P] extends { post: infer Op } ? JsonBody<Op> : never;

export type SuiteList = Get<"/api/v1/suites">;
export type Suite = SuiteList["items"][number];
export type RunList = Get<"/api/v1/runs">;
export type RunSummary = RunList["items"][number];
export type UnmatchedResult = RunComparison["only_in_baseline"][number];
export type RunDetail = Get<"/api/v1/runs/{run_id}">;
export type RunResult = RunDetail["results"][number];
export type SeriesList = Get<"/api/v1/series">;
export type Series = SeriesList["items"][number];
export type SeriesHistory = Get<"/api/v1/series/{series_id}/history">;
export type SeriesIdentity = SeriesHistory["series"];
export type ModePairList = Get<"/api/v1/compare/modes">;
export type ModePair = ModePairList["items"][number];
export type RunComparison = Get<"/api/v1/compare/runs">;
export type MatchedResult = RunComparison["matched"][number];
export type RegressionPage = Get<"/api/v1/regressions">;
export type Regression = RegressionPage["items"][number];
export type RegressionStatus = Regression["status"];
export type ChangeDirection = Regression["direction"];
export type RegressionTriage = Patch<"/api/v1/regressions/{regression_id}">;
export type RegressionEvent = Get<"/api/v1/regressions/{regression_id}/history">["items"][number];
export type AnnotationList = Get<"/api/v1/annotations">;
export type Annotation = AnnotationList["items"][number];
export type AnnotationIn = Post<"/api/v1/annotations">;
