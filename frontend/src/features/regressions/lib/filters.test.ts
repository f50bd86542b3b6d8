import { describe, expect, it } from "vitest";
import { parseRegressionFilters, setRegressionFilter } from "./filters";

describe("parseRegressionFilters", () => {
  it("reads known statuses and directions and drops others", () => {
    const params = new URLSearchParams(
      "status=acknowledged&direction=sideways&suite=s1&language=%20&cursor=abc",
    );
    expect(parseRegressionFilters(params)).toEqual({ status: "acknowledged", suite: "s1", cursor: "abc" });
    expect(parseRegressionFilters(new URLSearchParams("status=open"))).toEqual({});
  });
});

describe("setRegressionFilter", () => {
  it("starts again from the newest when a filter changes", () => {
    const next = setRegressionFilter(new URLSearchParams("suite=a&cursor=xyz"), "status", "fixed");
    expect(next.toString()).toBe("suite=a&status=fixed");
  });

  it("keeps filters when paging, and clears a filter given no value", () => {
    expect(setRegressionFilter(new URLSearchParams("suite=a"), "cursor", "c2").toString()).toBe(
      "suite=a&cursor=c2",
    );
    expect(setRegressionFilter(new URLSearchParams("suite=a&status=fixed"), "suite", "").toString()).toBe(
      "status=fixed",
    );
  });
});
