import { describe, expect, it } from "vitest";
import { jitter, type SideStrip, SPREAD, stripDots } from "./stripChartModel";

describe("jitter", () => {
  it("spreads dots across the strip without repeating a place", () => {
    const places = Array.from({ length: 50 }, (_, i) => jitter(i));
    expect(places.every((x) => x >= -0.5 && x < 0.5)).toBe(true);
    expect(new Set(places.map((x) => x.toFixed(6))).size).toBe(50);
    expect(jitter(7)).toBe(jitter(7));
  });
});

describe("stripDots", () => {
  it("carries a level's outlier mark to its dot and its label", () => {
    const marked: SideStrip = {
      label: "after",
      levels: [
        { value: 1, runId: "a" },
        { value: 9, runId: "b", outlier: true },
      ],
      samples: [],
      spread: null,
      count: 2,
    };
    const { levels } = stripDots([marked]);
    expect(levels.map((d) => [d.outlier, d.label])).toEqual([
      [false, "after: run level"],
      [true, "after: run level (outlier)"],
    ]);
  });

  const strip = (label: string, values: number[], samples: number[] = [], outlier = false): SideStrip => ({
    label,
    levels: values.map((value, i) => ({ value, runId: `${label}-${i}`, outlier })),
    samples: samples.map((value) => ({ value, outlier })),
    spread: null,
    count: values.length,
  });

  it("puts each strip's levels around its index, each opening its run", () => {
    const { levels, samples } = stripDots([strip("before", [1, 2, 3]), strip("after", [5, 6])]);
    expect(levels.map((d) => [d.value, d.runId, d.label])).toEqual([
      [1, "before-0", "before: run level"],
      [2, "before-1", "before: run level"],
      [3, "before-2", "before: run level"],
      [5, "after-0", "after: run level"],
      [6, "after-1", "after: run level"],
    ]);
    expect(levels.slice(0, 3).every((d) => Math.abs(d.x) <= SPREAD / 2)).toBe(true);
    expect(levels.slice(3).every((d) => Math.abs(d.x - 1) <= SPREAD / 2)).toBe(true);
    expect(samples).toEqual([]);
  });

  it("spreads replicates a little wider, away from the levels, and opens no run from them", () => {
    const { levels, samples } = stripDots([strip("after", [5], [4.9, 5.1])]);
    expect(samples.map((d) => [d.value, d.label, d.runId])).toEqual([
      [4.9, "after: replicate", undefined],
      [5.1, "after: replicate", undefined],
    ]);
    expect(samples.every((d) => Math.abs(d.x) <= (SPREAD * 1.4) / 2)).toBe(true);
    expect(samples.map((d) => d.x)).not.toContain(levels[0]?.x);
  });

  it("marks the replicates of an outlier run as outliers too, as its level", () => {
    const { samples } = stripDots([strip("after", [5], [4.9, 5.1], true)]);
    expect(samples.map((d) => [d.outlier, d.label])).toEqual([
      [true, "after: replicate (outlier run)"],
      [true, "after: replicate (outlier run)"],
    ]);
  });
});
