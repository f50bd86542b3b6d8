/** Names for the generated API payloads, derived from `paths` so they follow the schema. */
import type { components, paths } from "./schema";

type JsonOk<Op> = Op extends { responses: { 200: { content: { "application/json": infer T } } } } ? T : never;
type Get<P extends keyof paths> = paths[P] extends { get: infer Op } ? JsonOk<Op> : never;
type GetQuery<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } }
  ? NonNullable<Q>
  : never;
type JsonBody<Op> = Op extends { requestBody?: { content: { "application/json": infer T } } } ? T : never;
type Patch<P extends keyof paths> = paths[P] extends { patch: infer Op } ? JsonBody<Op> : never;
type Post<P extends keyof paths> = paths[P] extends { post: infer Op } ? JsonBody<Op> : never;
type Put<P extends keyof paths> = paths[P] extends { put: infer Op } ? JsonBody<Op> : never;

export type SuiteList = Get<"/api/v1/suites">;
export type Suite = SuiteList["items"][number];
export type SuiteUpdate = Put<"/api/v1/suites/{suite}">;
export type Study = Get<"/api/v1/suites/{suite}/study">;
export type StudyLink = Study["links"][number];
export type StudyRun = Study["runs"][number];
export type StudyWorkload = Study["workloads"][number];
export type Finding = Study["findings"][number];
export type FindingSide = Finding["numerator"];
export type FindingsUpdate = Put<"/api/v1/suites/{suite}/findings">;
export type FindingIn = FindingsUpdate["findings"][number];
export type RunUpload = Post<"/api/v1/runs">;
export type RunList = Get<"/api/v1/runs">;
export type RunListQuery = GetQuery<"/api/v1/runs">;
export type RunSummary = RunList["items"][number];
export type UnmatchedResult = RunComparison["only_in_baseline"][number];
export type RunDetail = Get<"/api/v1/runs/{run_id}">;
export type RunResult = RunDetail["results"][number];
export type Facets = Get<"/api/v1/facets">;
export type FacetValue = Facets["dimensions"][string][number];
export type SeriesList = Get<"/api/v1/series">;
export type SeriesQuery = GetQuery<"/api/v1/series">;
export type Series = SeriesList["items"][number];
export type LatestValue = NonNullable<Series["latest"]>;
export type SeriesHistory = Get<"/api/v1/series/{series_id}/history">;
export type HistoryQuery = GetQuery<"/api/v1/series/{series_id}/history">;
export type SeriesIdentity = SeriesHistory["series"];
export type HistoryPoint = SeriesHistory["points"][number];
export type ModePairList = Get<"/api/v1/compare/modes">;
export type ModePair = ModePairList["items"][number];
export type ModeSide = ModePair["sync"];
export type RunComparison = Get<"/api/v1/compare/runs">;
export type MatchedResult = RunComparison["matched"][number];
export type ComparisonVerdict = MatchedResult["verdict"];
export type RegressionPage = Get<"/api/v1/regressions">;
export type RegressionQuery = GetQuery<"/api/v1/regressions">;
export type Regression = RegressionPage["items"][number];
export type DetectionEvidence = NonNullable<Regression["evidence"]>;
export type SeriesDetection = Get<"/api/v1/series/{series_id}/detection">;
export type RegressionStatus = Regression["status"];
export type ChangeDirection = Regression["direction"];
export type RegressionTriage = Patch<"/api/v1/regressions/{regression_id}">;
export type RegressionContext = Get<"/api/v1/regressions/{regression_id}/context">;
export type ContextPoint = RegressionContext["before"][number];
export type LevelSpread = NonNullable<RegressionContext["before_spread"]>;
export type RegressionEvent = Get<"/api/v1/regressions/{regression_id}/history">["items"][number];
export type AnnotationList = Get<"/api/v1/annotations">;
export type Annotation = AnnotationList["items"][number];
export type AnnotationIn = Post<"/api/v1/annotations">;
/** The service's one error envelope, on every 4xx and 5xx answer it writes itself. */
export type ErrorBody = components["schemas"]["ErrorOut"];
export type FieldError = ErrorBody["fields"][number];
export type TokenList = Get<"/api/v1/tokens">;
export type ApiToken = TokenList["items"][number];
export type TokenIn = Post<"/api/v1/tokens">;
export type TokenScope = TokenIn["scope"];
