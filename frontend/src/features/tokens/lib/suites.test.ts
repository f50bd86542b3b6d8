import { describe, expect, it } from "vitest";
import { describeSuites, parseSuites } from "./suites";

describe("parseSuites", () => {
  it("splits on commas and spaces, drops repeats", () => {
    expect(parseSuites("team-api, team-web team-api")).toEqual(["team-api", "team-web"]);
  });
  it("is every suite (undefined) when nothing is typed", () => {
    expect(parseSuites("  , ")).toBeUndefined();
  });
});

describe("describeSuites", () => {
  it("names null as every suite", () => {
    expect(describeSuites(null)).toBe("every suite");
    expect(describeSuites(["team-*", "x"])).toBe("team-*, x");
  });
});
