import { describe, expect, it } from "vitest";
import { describeRatio, ratioInterval, type SideValue, t975 } from "./ratio";

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

const side = (value: number, stats: SideValue["stats"] = null, unit = "us"): SideValue => ({
  value,
  unit,
  value_base: value * 1e-6,
  stats,
});

describe("ratioInterval", () => {
  it("uses the delta method on the log ratio when both sides have n and stddev", () => {
    const sync = side(100, { n: 10, stddev: 10, mean: 100 });
    const async = side(200, { n: 10, stddev: 20, mean: 200 });
    const interval = ratioInterval(sync, async, 2);
    // Var(ln r) = 0.01/10 + 0.01/10 = 0.002; df = 18 → t = 2.101
    const half = 2.101 * Math.sqrt(0.002);
    expect(interval?.method).toBe("delta");
    expect(interval?.low).toBeCloseTo(2 * Math.exp(-half), 10);
    expect(interval?.high).toBeCloseTo(2 * Math.exp(half), 10);
  });
  it("treats a side without spread as exact", () => {
    const interval = ratioInterval(side(100), side(200, { n: 5, stddev: 20 }), 2);
    // Var = 400 / (5 · 40000) = 0.002, df = 4 → t = 2.776
    expect(interval?.high).toBeCloseTo(2 * Math.exp(2.776 * Math.sqrt(0.002)), 10);
  });
  it("falls back to the extreme ratios of reported ranges, across units", () => {
    const sync = side(85.5, { min: 84, max: 87 });
    const async = { value: 0.0875, unit: "ms", value_base: 87.5e-6, stats: { min: 0.084, max: 0.091 } };
    const interval = ratioInterval(sync, async, 87.5 / 85.5);
    expect(interval?.method).toBe("range");
    expect(interval?.low).toBeCloseTo(84 / 87, 10);
    expect(interval?.high).toBeCloseTo(91 / 84, 10);
  });
  it("gives nothing without stats", () => {
    expect(ratioInterval(side(1), side(2), 2)).toBeNull();
  });
});

describe("t975", () => {
  it("follows Student's t", () => {
    expect(t975(1)).toBe(12.706);
    expect(t975(9.7)).toBe(2.262);
    expect(t975(Number.POSITIVE_INFINITY)).toBe(1.96);
  });
});
