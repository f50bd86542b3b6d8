import { describe, expect, it } from "vitest";
import { formatRatioTick, ratioTicks } from "./logScale";

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
