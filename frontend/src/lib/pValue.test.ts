import { describe, expect, it } from "vitest";
import { formatPValue } from "./pValue";

describe("formatPValue", () => {
  it("gives two significant digits, and a floor under 0.001", () => {
    expect(formatPValue(0.0123, "n/a")).toBe("p = 0.012");
    expect(formatPValue(0.00213, "n/a")).toBe("p = 0.0021");
    expect(formatPValue(0.001, "n/a")).toBe("p = 0.0010");
    expect(formatPValue(0.0000004, "n/a")).toBe("p < 0.001");
  });

  it("says what the page calls a missing one", () => {
    expect(formatPValue(null, "n/a")).toBe("n/a");
    expect(formatPValue(undefined, "p not stored")).toBe("p not stored");
    expect(formatPValue(Number.NaN, "n/a")).toBe("n/a");
  });
});
