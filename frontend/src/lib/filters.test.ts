import { describe, expect, it } from "vitest";
import {
  activeCount,
  clearDimension,
  emptyFilters,
  parseFilters,
  toApiQuery,
  toggleValue,
  writeFilters,
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
