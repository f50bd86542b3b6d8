import { describe, expect, it } from "vitest";
import { formatRatioTick, logDomain, powerTicks, ratioTicks, spansDecades } from "./logScale";

describe("ratio ticks", () => {
  it("covers the bars with 1-2-5 ticks including 1.0", () => {
    const ticks = ratioTicks([Math.log10(2.09), Math.log10(0.4)]).map(formatRatioTick);
    expect(ticks).toContain("1×");
    expect(ticks).toContain("2×");
    expect(ticks).toContain("0.5×");
    expect(ticks.length).toBeLessThanOrEqual(9);
  });
  it("thins to powers of ten for wide spans", () => {
    expect(ratioTicks([-3, 4]).map(formatRatioTick)).toEqual([
      "0.001×",
      "0.01×",
      "0.1×",
      "1×",
      "10×",
      "100×",
      "1000×",
      "10000×",
    ]);
  });
});

describe("log value axes", () => {
  it("are offered where positive values span two decades", () => {
    expect(spansDecades([0.0004, 56.7])).toBe(true);
    expect(spansDecades([1, 99])).toBe(false);
    expect(spansDecades([1, 100])).toBe(true);
    expect(spansDecades([0, -5, 1, 50])).toBe(false);
    expect(spansDecades([3])).toBe(false);
  });

  it("run from the power of ten below the smallest value to the one above the largest", () => {
    expect(logDomain([0.0004, 56.7])).toEqual([0.0001, 100]);
    expect(logDomain([0, 10, 100])).toEqual([10, 100]);
    expect(logDomain([10])).toEqual([10, 100]);
    expect(logDomain([0, -1])).toBeNull();
  });
});

describe("power ticks", () => {
  it("are each power of ten of the domain", () => {
    expect(powerTicks([0.0001, 100])).toEqual([0.0001, 0.001, 0.01, 0.1, 1, 10, 100]);
  });
});
