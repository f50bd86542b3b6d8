import { describe, expect, it } from "vitest";
import { placeMarkers } from "./markers";

describe("placeMarkers", () => {
  it("keeps markers inside the domain, in order", () => {
    const domain: [number, number] = [Date.parse("2025-01-01"), Date.parse("2025-12-31")];
    const placed = placeMarkers(
      [
        { time: "2025-06-01T00:00:00Z", label: "regression", kind: "regression", status: "open" },
        { time: "2024-06-01T00:00:00Z", label: "too early", kind: "annotation" },
        { time: Date.parse("2025-02-01"), label: "kernel update", kind: "annotation" },
        { time: "not a date", label: "bad", kind: "annotation" },
      ],
      domain,
    );
    expect(placed.map((m) => m.label)).toEqual(["kernel update", "regression"]);
  });
});
