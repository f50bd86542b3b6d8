import { describe, expect, it } from "vitest";
import { jitter } from "./stripChartModel";

describe("jitter", () => {
  it("spreads dots across the strip without repeating a place", () => {
    const places = Array.from({ length: 50 }, (_, i) => jitter(i));
    expect(places.every((x) => x >= -0.5 && x < 0.5)).toBe(true);
    expect(new Set(places.map((x) => x.toFixed(6))).size).toBe(50);
    expect(jitter(7)).toBe(jitter(7));
  });
});
