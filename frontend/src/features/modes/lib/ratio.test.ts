import { describe, expect, it } from "vitest";
import { describeRatio, formatInterval } from "./ratio";

describe("describeRatio", () => {
  it("words lower-is-better ratios", () => {
    expect(describeRatio(119.898 / 57.444, "lower", "s").text).toBe("async 2.09× slower");
    expect(describeRatio(31410 / 943, "lower", "s").text).toBe("async 33.3× slower");
    expect(describeRatio(1 / 1.048, "lower", "s")).toMatchObject({
      text: "async 1.05× faster",
      verdict: "faster",
    });
  });
  it("words higher-is-better ratios the other way round", () => {
    expect(describeRatio(307000 / 762000, "higher", "ops/s").text).toBe("async 2.48× slower");
    expect(describeRatio(44000 / 12000, "higher", "ops/s").text).toBe("async 3.67× faster");
  });
  it("says better/worse for metrics that are not times or rates", () => {
    expect(describeRatio(2, "lower", "count")).toMatchObject({ text: "async 2× worse", verdict: "worse" });
  });
  it("calls tiny differences the same", () => {
    expect(describeRatio(1.0004, "lower", "s")).toMatchObject({ verdict: "same", factor: 1 });
  });
});

describe("formatInterval", () => {
  it("names the confidence level, or says range", () => {
    const delta = {
      estimate: 2,
      low: 1.9312,
      high: 2.2601,
      level: 0.95,
      method: "delta_log",
      df: 18,
    } as const;
    expect(formatInterval(delta)).toBe("1.93 – 2.26 (95%)");
    expect(formatInterval({ ...delta, level: null, method: "range", df: null })).toBe("1.93 – 2.26 (range)");
  });
});
