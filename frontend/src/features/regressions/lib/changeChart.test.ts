import { describe, expect, it } from "vitest";
import type { Regression, RegressionContext } from "../../../api/types";
import { changeHistory, changeScale, changeStrips } from "./changeChart";

const series: Regression["series"] = {
  id: 7,
  suite: "s",
  benchmark: "file-write-tiny",
  params: { writes: 10000 },
  language: "dart",
  implementation: "dart:io",
  mode: "async",
  variant: null,
  hardware: "m",
  branch: "main",
  metric: "time_per_op",
  unit: "us",
  base_unit: "s",
  direction: "lower",
};

const point = (day: number, us: number, samples: number[] | null = null) => ({
  run_id: `r${day}`,
  started_at: `2025-01-${String(day).padStart(2, "0")}T00:00:00Z`,
  value_base: us * 1e-6,
  samples_base: samples?.map((s) => s * 1e-6) ?? null,
  commit: `c${day}`,
});

const spread = (values: number[]) => {
  const base = values.map((v) => v * 1e-6);
  return {
    count: base.length,
    min: Math.min(...base),
    q1: base[1] as number,
    median: base[2] as number,
    q3: base[3] as number,
    max: Math.max(...base),
  };
};

const context: RegressionContext = {
  before: [point(1, 99), point(2, 100), point(3, 101), point(4, 100), point(5, 102)],
  after: [point(6, 130, [129, 131.5]), point(7, 131), point(8, 129), point(9, 130), point(10, 132)],
  before_spread: spread([99, 100, 100, 101, 102]),
  after_spread: spread([129, 130, 130, 131, 132]),
  previous_run_id: "r5",
  commit_before: "c5",
  commit_after: "c6",
};

describe("a change's charts", () => {
  it("share one display unit that fits levels and replicates", () => {
    expect(changeScale(context, { series }).label).toBe("µs");
  });

  it("draw the runs around the change as one line in time order, replicates as bands", () => {
    const scale = changeScale(context, { series });
    const chart = changeHistory(context, { series }, scale);
    expect(chart.lines).toHaveLength(1);
    const [line] = chart.lines;
    expect(line?.points.map((p) => p.runId)).toEqual([
      "r1",
      "r2",
      "r3",
      "r4",
      "r5",
      "r6",
      "r7",
      "r8",
      "r9",
      "r10",
    ]);
    expect(line?.points[5]?.value).toBeCloseTo(130);
    expect(line?.points[5]?.band?.map((v) => Number(v.toFixed(3)))).toEqual([129, 131.5]);
    expect(line?.points[0]?.band).toBeNull();
    expect(chart.direction).toBe("lower");
  });

  it("put each side's levels, replicates and box in display units", () => {
    const scale = changeScale(context, { series });
    const [before, after] = changeStrips(context, scale);
    expect(before.label).toBe("before");
    expect(before.levels.map((l) => Number(l.value.toFixed(3)))).toEqual([99, 100, 101, 100, 102]);
    expect(before.samples).toEqual([]);
    expect(before.count).toBe(5);
    expect(after.samples.map((s) => Number(s.value.toFixed(3)))).toEqual([129, 131.5]);
    expect(after.spread?.median).toBeCloseTo(130);
    expect(after.spread?.q1).toBeCloseTo(130);
    expect(after.spread?.max).toBeCloseTo(132);
  });

  it("mark the runs a maintainer left out as outliers, on both charts", () => {
    const scale = changeScale(context, { series });
    const outliers = new Set(["r3", "r8"]);
    const [line] = changeHistory(context, { series }, scale, outliers).lines;
    expect(line?.points.filter((p) => p.outlier).map((p) => p.runId)).toEqual(["r3", "r8"]);
    const [before, after] = changeStrips(context, scale, outliers);
    expect(before.levels.map((l) => l.outlier)).toEqual([false, false, true, false, false]);
    expect(after.levels.filter((l) => l.outlier).map((l) => l.runId)).toEqual(["r8"]);
    expect(after.samples.some((s) => s.outlier)).toBe(false); // r6's replicates; r6 is not marked
    const [, marked] = changeStrips(context, scale, new Set(["r6"]));
    expect(marked.samples.map((s) => s.outlier)).toEqual([true, true]);
    expect(changeHistory(context, { series }, scale).lines[0]?.points.some((p) => p.outlier)).toBe(false);
  });

  it("draw no box for a side without runs", () => {
    const scale = changeScale(context, { series });
    const [before] = changeStrips({ ...context, before: [], before_spread: null }, scale);
    expect(before.spread).toBeNull();
    expect(before.count).toBe(0);
  });
});
