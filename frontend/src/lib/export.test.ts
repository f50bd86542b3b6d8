import { describe, expect, it } from "vitest";
import { buildCsv, buildJson, type ExportMeta, exportFileName } from "./export";

const meta: ExportMeta = {
  view: "explore",
  url: "http://x/explore?suite=a&mode=async",
  filters: { suite: ["a"], mode: ["async"], language: [] },
  exportedAt: "2025-03-20T10:00:00.000Z",
};

describe("buildCsv", () => {
  it("writes the context as comments, then a header and quoted rows", () => {
    const csv = buildCsv([{ Name: 'say "hi", ok', Value: 1.5, Unit: null }], meta);
    expect(csv.split("\r\n")).toEqual([
      "# Benchboard explore export",
      "# url: http://x/explore?suite=a&mode=async",
      "# filters: suite=a; mode=async",
      "# exported_at: 2025-03-20T10:00:00.000Z",
      "Name,Value,Unit",
      '"say ""hi"", ok",1.5,',
      "",
    ]);
  });
  it("says when there are no filters and quotes cells that start a comment", () => {
    const csv = buildCsv([{ Tag: "#1" }], { ...meta, filters: {} });
    expect(csv).toContain("# filters: none");
    expect(csv).toContain('"#1"');
  });
});

describe("buildJson", () => {
  it("wraps the rows with the meta", () => {
    expect(JSON.parse(buildJson([{ a: 1 }], meta))).toEqual({ ...meta, rows: [{ a: 1 }] });
  });
  it("names files", () => {
    expect(exportFileName("explore", meta.exportedAt, "csv")).toBe("benchboard-explore-2025-03-20.csv");
  });
});
