import { describe, expect, it } from "vitest";
import { findingInput, formatLinks, move, parseAuthors, parseLinks, textOrNull } from "./metadata";

describe("study form fields", () => {
  it("reads one author per line, blank lines ignored", () => {
    expect(parseAuthors(" Diego Crespo \n\n Ian Griffiths")).toEqual(["Diego Crespo", "Ian Griffiths"]);
  });

  it("reads links as label | address, and a bare address as its own label", () => {
    const text = "Article | https://example.org/a\nhttps://example.org/b\n";
    const links = parseLinks(text);
    expect(links).toEqual([
      { label: "Article", url: "https://example.org/a" },
      { label: "https://example.org/b", url: "https://example.org/b" },
    ]);
    expect(parseLinks(formatLinks(links))).toEqual(links);
  });

  it("sends an emptied text as null", () => {
    expect(textOrNull("  ")).toBeNull();
    expect(textOrNull(" T ")).toBe("T");
  });
});

describe("findings editing", () => {
  it("moves an item, and leaves the ends alone", () => {
    expect(move(["a", "b", "c"], 2, -1)).toEqual(["a", "c", "b"]);
    expect(move(["a", "b"], 0, -1)).toEqual(["a", "b"]);
  });

  it("sends a pinned finding back as it was pinned", () => {
    const side = { run_id: "r", series_id: 3, label: "async" };
    const finding = {
      numerator: { ...side, value: 1 },
      denominator: { ...side, series_id: 4, label: "sync" },
      context: "for X",
      note: null,
    };
    expect(findingInput(finding as unknown as Parameters<typeof findingInput>[0])).toEqual({
      numerator: side,
      denominator: { ...side, series_id: 4, label: "sync" },
      context: "for X",
      note: null,
    });
  });
});
