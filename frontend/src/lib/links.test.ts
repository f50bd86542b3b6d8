import { describe, expect, it } from "vitest";
import { compareHref, runHref, studyHref, uploadHref } from "./links";

describe("links", () => {
  it("encodes each part, so an id or suite with / ? # & stays one part", () => {
    expect(runHref("a/b?c#d")).toBe("/runs/a%2Fb%3Fc%23d");
    expect(uploadHref("a/b")).toBe("/api/v1/runs/a%2Fb/upload");
    expect(studyHref("x y")).toBe("/studies/x%20y");
    expect(compareHref("a&b=c", "d#e")).toBe("/compare?baseline=a%26b%3Dc&contender=d%23e");
  });

  it("links two runs' comparison with both ids, baseline first", () => {
    const url = new URL(compareHref("1", "2"), "http://x");
    expect([url.pathname, url.searchParams.get("baseline"), url.searchParams.get("contender")]).toEqual([
      "/compare",
      "1",
      "2",
    ]);
  });
});
