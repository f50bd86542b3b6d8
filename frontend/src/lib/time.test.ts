import { describe, expect, it } from "vitest";
import { formatDate, formatDateRange, formatDateTime } from "./time";

describe("time", () => {
  it("formats UTC dates and ranges", () => {
    expect(formatDate("2025-03-20T00:00:00Z")).toBe("20 Mar 2025");
    expect(formatDate(null)).toBe("—");
    expect(formatDateRange("2022-02-12T00:00:00Z", "2022-02-12T00:00:00Z")).toBe("12 Feb 2022");
    expect(formatDateRange("2013-02-15T00:00:00Z", "2025-03-20T00:00:00Z")).toBe("15 Feb 2013 – 20 Mar 2025");
    expect(formatDateTime("2025-03-20T12:05:00Z")).toContain("12:05");
  });
});
