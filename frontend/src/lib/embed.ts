/**
 * The service's published images (GET /api/v1/…/chart.svg, badge.svg) and the snippets that
 * embed them in a README or a page. Every image URL the dashboard shows or hands out is built here.
 */
import type { BoardView } from "./board";
import { type DateRange, type Filters, writeFilters } from "./filters";

export type SnippetFormat = "markdown" | "html";

export interface Embeddable {
  /** The image's path on this service: "/api/v1/series/3/chart.svg". */
  image: string;
  /** What the image shows, for readers who cannot see it. */
  alt: string;
  /** The dashboard page the image links to. */
  link: string;
}

const dated = (range: DateRange) => {
  const query = new URLSearchParams();
  if (range.since) query.set("since", `${range.since}T00:00:00Z`);
  if (range.until) query.set("until", `${range.until}T23:59:59Z`);
  return query;
};

const withQuery = (path: string, query: URLSearchParams) => {
  const text = query.toString();
  return text ? `${path}?${text}` : path;
};

export const seriesChartPath = (id: number, range: DateRange = { since: "", until: "" }) =>
  withQuery(`/api/v1/series/${id}/chart.svg`, dated(range));

export const seriesBadgePath = (id: number) => `/api/v1/series/${id}/badge.svg`;

export const findingChartPath = (id: number) => `/api/v1/findings/${id}/chart.svg`;

export const leaderboardChartPath = (view: Pick<BoardView, "suite" | "benchmark" | "metric">) =>
  withQuery(
    "/api/v1/leaderboard/chart.svg",
    new URLSearchParams({ suite: view.suite, benchmark: view.benchmark, metric: view.metric }),
  );

/** The sync/async chart of the same filters as the page (dates as whole days, as the page reads them). */
export function modesChartPath(filters: Filters): string {
  const query = writeFilters({ ...filters, since: "", until: "" });
  for (const [key, value] of dated(filters)) query.set(key, value);
  return withQuery("/api/v1/compare/modes/chart.svg", query);
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const escapeMarkdown = (text: string) => text.replace(/([\\[\]])/g, "\\$1");

/** A snippet that shows the image, linked to its page; `origin` makes both URLs absolute. */
export function embedSnippet(format: SnippetFormat, what: Embeddable, origin: string): string {
  const image = new URL(what.image, origin).href;
  const link = new URL(what.link, origin).href;
  if (format === "markdown") return `[![${escapeMarkdown(what.alt)}](${image})](${link})`;
  return `<a href="${escapeHtml(link)}"><img src="${escapeHtml(image)}" alt="${escapeHtml(what.alt)}"></a>`;
}
