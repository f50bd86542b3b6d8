import { describe, expect, it } from "vitest";
import { type HistoryLine, mergeByTime, placeMarkers, timeDomain } from "./historyChartModel";

const line = (key: string, points: [t: number, value: number, runId: string][]): HistoryLine => ({
  key,
  label: key,
  color: "#000",
  dash: "",
  marker: "circle",
  points: points.map(([t, value, runId]) => ({ t, value, runId, band: null, count: 1 })),
  downsampled: false,
  totalPoints: points.length,
});

const day = (d: number) => Date.parse(`2025-01-0${d}T00:00:00Z`);

describe("mergeByTime", () => {
  it("joins lines on their times, in time order", () => {
    const rows = mergeByTime([
      line("1", [
        [day(2), 2, "b"],
        [day(1), 1, "a"],
      ]),
      line("2", [[day(2), 3, "c"]]),
    ]);
    expect(rows.map((r) => [r.t, Object.keys(r.points)])).toEqual([
      [day(1), ["1"]],
      [day(2), ["1", "2"]],
    ]);
    expect(rows[1]?.points["2"]?.runId).toBe("c");
  });
});

describe("timeDomain", () => {
  it("spans the first to the last point of any line", () => {
    expect(timeDomain([line("1", [[day(3), 1, "a"]]), line("2", [[day(1), 1, "b"]])])).toEqual([
      day(1),
      day(3),
    ]);
  });
  it("is [0, 0] without points", () => {
    expect(timeDomain([line("1", [])])).toEqual([0, 0]);
  });
});

describe("placeMarkers", () => {
  it("keeps markers inside the domain, in order", () => {
    const domain: [number, number] = [Date.parse("2025-01-01"), Date.parse("2025-12-31")];
    const placed = placeMarkers(
      [
        { time: "2025-06-01T00:00:00Z", label: "regression", kind: "regression", status: "untriaged" },
        { time: "2024-06-01T00:00:00Z", label: "too early", kind: "annotation" },
        { time: Date.parse("2025-02-01"), label: "kernel update", kind: "annotation" },
        { time: "not a date", label: "bad", kind: "annotation" },
      ],
      domain,
    );
    expect(placed.map((m) => [m.label, m.t])).toEqual([
      ["kernel update", Date.parse("2025-02-01")],
      ["regression", Date.parse("2025-06-01T00:00:00Z")],
    ]);
  });
});
