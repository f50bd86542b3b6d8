import { describe, expect, it } from "vitest";
import { RATIO_EXAMPLES } from "../../../api/vocabulary";
import { formatFactor } from "../../../lib/factor";
import { describeRatio, formatInterval } from "./ratio";

describe("describeRatio", () => {
  it("words lower-is-better ratios", () => {
    expect(describeRatio(119.898 / 57.444, "lower", "s", "time").text).toBe("async 2.09× slower");
    expect(describeRatio(31410 / 943, "lower", "s", "time").text).toBe("async 33.3× slower");
    expect(describeRatio(1 / 1.048, "lower", "s", "time")).toMatchObject({
      text: "async 1.05× faster",
      verdict: "faster",
    });
  });
  it("words higher-is-better ratios the other way round", () => {
    expect(describeRatio(307000 / 762000, "higher", "ops/s", "throughput").text).toBe("async 2.48× slower");
    expect(describeRatio(44000 / 12000, "higher", "ops/s", "throughput").text).toBe("async 3.67× faster");
  });
  it("says more/fewer of the metric for metrics that are not times or rates, as findings do", () => {
    expect(describeRatio(2, "lower", "count", "allocated_objects")).toMatchObject({
      text: "async 2× more allocated objects",
      verdict: "more",
      better: false,
    });
  });
  it("reads a pair with the service's words for the same ratio", () => {
    for (const example of RATIO_EXAMPLES) {
      const wording = describeRatio(example.ratio, example.direction, example.base_unit, example.metric);
      expect([wording.verdict, formatFactor(wording.factor)]).toEqual([example.verdict, example.factor]);
    }
  });
  it("calls tiny differences the same", () => {
    expect(describeRatio(1.0004, "lower", "s", "time")).toMatchObject({ verdict: "same", factor: 1 });
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
