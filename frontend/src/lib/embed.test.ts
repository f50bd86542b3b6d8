import { describe, expect, it } from "vitest";
import { embedSnippet, findingChartPath, modesChartPath, seriesChartPath } from "./embed";
import { emptyFilters } from "./filters";

describe("image paths", () => {
  it("carry the page's dates as the API's whole-day times", () => {
    expect(seriesChartPath(7)).toBe("/api/v1/series/7/chart.svg");
    expect(seriesChartPath(7, { since: "2025-01-02", until: "" })).toBe(
      "/api/v1/series/7/chart.svg?since=2025-01-02T00%3A00%3A00Z",
    );
    expect(findingChartPath(3)).toBe("/api/v1/findings/3/chart.svg");
  });

  it("give the modes chart the page's filters", () => {
    const filters = emptyFilters();
    filters.values.suite = ["fio", "dart"];
    filters.until = "2025-03-01";
    expect(modesChartPath(filters)).toBe(
      "/api/v1/compare/modes/chart.svg?suite=fio&suite=dart&until=2025-03-01T23%3A59%3A59Z",
    );
  });
});

describe("embedSnippet", () => {
  const what = { image: "/api/v1/series/7/chart.svg", alt: 'time [us] "<fast>"', link: "/history?series=7" };

  it("writes Markdown of a linked image with absolute URLs", () => {
    expect(embedSnippet("markdown", what, "https://bench.example")).toBe(
      '[![time \\[us\\] "<fast>"](https://bench.example/api/v1/series/7/chart.svg)](https://bench.example/history?series=7)',
    );
  });

  it("writes HTML with every attribute escaped", () => {
    expect(embedSnippet("html", what, "https://bench.example")).toBe(
      '<a href="https://bench.example/history?series=7"><img src="https://bench.example/api/v1/series/7/chart.svg" alt="time [us] &quot;&lt;fast&gt;&quot;"></a>',
    );
  });
});
