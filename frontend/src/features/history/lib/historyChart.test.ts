import { describe, expect, it } from "vitest";
import { languageColor } from "../../../lib/colors";
import { buildHistoryCharts, type HistoryLike, type HistorySeriesLike, mergeByTime } from "./historyChart";

const series = (id: number, overrides: Partial<HistorySeriesLike> = {}): HistorySeriesLike => ({
  id,
  suite: "fio-sync-vs-async",
  benchmark: "fio-randread-4k",
  params: { direct: 0 },
  language: "c",
  implementation: "fio/sync",
  mode: "sync",
  variant: null,
  hardware: "m",
  metric: "latency",
  base_unit: "s",
  direction: "lower",
  ...overrides,
});

const history = (s: HistorySeriesLike, points: HistoryLike["points"]): HistoryLike => ({
  series: s,
  points,
  downsampled: false,
  total_points: points.length,
});

describe("buildHistoryCharts", () => {
  it("puts series of one unit dimension on one chart with a real time axis", () => {
    const charts = buildHistoryCharts([
      history(series(1), [
        { run_id: "b", started_at: "2025-03-21T00:00:00Z", value: 1100, unit: "ns", value_base: 1.1e-6 },
        { run_id: "a", started_at: "2025-03-20T00:00:00Z", value: 943, unit: "ns", value_base: 943e-9 },
      ]),
      history(series(2, { mode: "async", implementation: "fio/posixaio" }), [
        { run_id: "a", started_at: "2025-03-20T00:00:00Z", value: 31.41, unit: "us", value_base: 31.41e-6 },
      ]),
    ]);
    expect(charts).toHaveLength(1);
    const [chart] = charts;
    expect(chart?.scale.label).toBe("µs");
    expect(chart?.lines[0]?.points.map((p) => p.runId)).toEqual(["a", "b"]);
    expect(chart?.lines[0]?.points[0]?.t).toBe(Date.parse("2025-03-20T00:00:00Z"));
    expect(chart?.lines[1]?.points[0]?.value).toBeCloseTo(31.41);
    expect(chart?.lines.map((l) => [l.color, l.dash])).toEqual([
      [languageColor("c"), ""],
      [languageColor("c"), "6 3"],
    ]);
    expect(chart?.domain).toEqual([Date.parse("2025-03-20T00:00:00Z"), Date.parse("2025-03-21T00:00:00Z")]);
    expect(chart?.lines[0]?.label).toBe("c · fio/sync · sync — fio-randread-4k (direct=0), latency, m");
  });

  it("splits unit dimensions and draws bands from buckets or stats", () => {
    const charts = buildHistoryCharts([
      history(series(1), [
        {
          run_id: "a",
          started_at: "2025-01-01T00:00:00Z",
          value: 2,
          unit: "ms",
          value_base: 0.002,
          stats: { min: 1, max: 3 },
        },
        {
          run_id: "b",
          started_at: "2025-01-02T00:00:00Z",
          value: 2,
          unit: "ms",
          value_base: 0.002,
          min_base: 0.0015,
          max_base: 0.004,
          count: 7,
        },
      ]),
      history(series(2, { metric: "iops", base_unit: "ops/s", direction: "higher" }), []),
    ]);
    expect(charts.map((c) => c.baseUnit)).toEqual(["s", "ops/s"]);
    const points = charts[0]?.lines[0]?.points ?? [];
    expect(points[0]?.band?.map((v) => Number(v.toFixed(6)))).toEqual([1, 3]);
    expect(points[1]?.band?.map((v) => Number(v.toFixed(6)))).toEqual([1.5, 4]);
    expect(points[1]?.count).toBe(7);
    expect(charts[1]?.domain).toEqual([0, 0]);
  });
});

describe("mergeByTime", () => {
  it("joins lines on their times", () => {
    const [chart] = buildHistoryCharts([
      history(series(1), [
        { run_id: "a", started_at: "2025-01-01T00:00:00Z", value: 1, unit: "s", value_base: 1 },
        { run_id: "b", started_at: "2025-01-02T00:00:00Z", value: 2, unit: "s", value_base: 2 },
      ]),
      history(series(2), [
        { run_id: "c", started_at: "2025-01-02T00:00:00Z", value: 3, unit: "s", value_base: 3 },
      ]),
    ]);
    const rows = mergeByTime(chart?.lines ?? []);
    expect(rows.map((r) => Object.keys(r.points))).toEqual([["1"], ["1", "2"]]);
    expect(rows[1]?.points["2"]?.runId).toBe("c");
  });
});
