import { describe, expect, it } from "vitest";
import {
  activeCount,
  clearDimension,
  dateRangeQuery,
  emptyFilters,
  historyHref,
  parseFilters,
  parseHistoryFilters,
  toApiQuery,
  toggleValue,
  writeFilters,
  writeHistoryFilters,
} from "./filters";

describe("URL ⇄ filters", () => {
  it("round-trips repeated values and dates, keeping other keys", () => {
    const url = new URLSearchParams(
      "suite=dart-async-file-writes&mode=async&language=dart&language=go&since=2020-01-01&sort=value",
    );
    const filters = parseFilters(url);
    expect(filters.values.language).toEqual(["dart", "go"]);
    expect(filters.values.mode).toEqual(["async"]);
    expect(filters.since).toBe("2020-01-01");
    const written = writeFilters(filters, url);
    expect(parseFilters(written)).toEqual(filters);
    expect(written.get("sort")).toBe("value");
  });
  it("drops malformed dates, blanks and duplicates", () => {
    const filters = parseFilters(new URLSearchParams("since=yesterday&mode=&mode=sync&mode=sync"));
    expect(filters.since).toBe("");
    expect(filters.values.mode).toEqual(["sync"]);
  });
  it("round-trips one branch into the URL and the API query; none means the default", () => {
    const filters = parseFilters(new URLSearchParams("suite=s&branch=feature-x"));
    expect(filters.branch).toBe("feature-x");
    expect(toApiQuery(filters).branch).toBe("feature-x");
    expect(writeFilters(filters).get("branch")).toBe("feature-x");
    expect(activeCount(filters)).toBe(2);
    expect(toApiQuery(emptyFilters()).branch).toBeUndefined();
  });
  it("writes nothing for empty filters", () => {
    expect(writeFilters(emptyFilters()).toString()).toBe("");
  });
});

describe("editing filters", () => {
  it("toggles and clears values", () => {
    let filters = toggleValue(emptyFilters(), "language", "dart");
    filters = toggleValue(filters, "language", "go");
    expect(filters.values.language).toEqual(["dart", "go"]);
    expect(toggleValue(filters, "language", "dart").values.language).toEqual(["go"]);
    expect(activeCount({ ...filters, since: "2020-01-01" })).toBe(3);
    expect(clearDimension(filters, "language").values.language).toEqual([]);
  });
});

describe("toApiQuery", () => {
  it("sends only set dimensions, sorted, and whole days as UTC times", () => {
    const filters = parseFilters(
      new URLSearchParams("mode=sync&mode=async&since=2025-01-01&until=2025-03-20"),
    );
    expect(toApiQuery(filters)).toEqual({
      mode: ["async", "sync"],
      since: "2025-01-01T00:00:00Z",
      until: "2025-03-20T23:59:59.999Z",
    });
  });
});

describe("dateRangeQuery", () => {
  it("sends whole UTC days and leaves open ends out", () => {
    expect(dateRangeQuery({ since: "2025-01-01", until: "" })).toEqual({ since: "2025-01-01T00:00:00Z" });
    expect(dateRangeQuery({ since: "", until: "2025-03-20" })).toEqual({ until: "2025-03-20T23:59:59.999Z" });
    expect(dateRangeQuery({ since: "", until: "" })).toEqual({});
  });
});

describe("History URL ⇄ state", () => {
  it("reads series ids in order, once each, dropping ones that are not whole numbers", () => {
    const params = new URLSearchParams(
      "series=7&series=3&series=7&series=x&series=-1&series=&since=2025-01-01",
    );
    expect(parseHistoryFilters(params)).toEqual({ series: [7, 3], since: "2025-01-01", until: "" });
  });
  it("drops malformed dates as the filters do", () => {
    expect(parseHistoryFilters(new URLSearchParams("series=1&until=soon")).until).toBe("");
  });
  it("round-trips, keeping other keys such as the table's sorting", () => {
    const base = new URLSearchParams("series=1&series=2&sort=value&since=2024-01-01");
    const next = writeHistoryFilters({ series: [2], since: "", until: "2025-02-01" }, base);
    expect(next.toString()).toBe("sort=value&series=2&until=2025-02-01");
    expect(parseHistoryFilters(next)).toEqual({ series: [2], since: "", until: "2025-02-01" });
  });
  it("builds every link to the History page", () => {
    expect(historyHref([12])).toBe("/history?series=12");
    expect(historyHref([3, 7])).toBe("/history?series=3&series=7");
    expect(parseHistoryFilters(new URL(historyHref([3, 7]), "http://x").searchParams).series).toEqual([3, 7]);
  });
});
