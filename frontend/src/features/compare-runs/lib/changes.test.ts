import { describe, expect, it } from "vitest";
import { formatChange } from "./changes";

describe("formatChange", () => {
  it("signs percentages", () => {
    expect(formatChange(0.2)).toBe("+20.0%");
    expect(formatChange(-0.035)).toBe("−3.5%");
    expect(formatChange(0)).toBe("0.0%");
    expect(formatChange(2.5)).toBe("+250%");
    expect(formatChange(null)).toBe("—");
  });
});
