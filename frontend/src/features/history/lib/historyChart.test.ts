import { describe, expect, it } from "vitest";
import type { HistoryPoint, SeriesHistory, SeriesIdentity } from "../../../api/types";
import { seriesStyles } from "../../../lib/colors";
import { buildHistoryCharts, pointRows } from "./historyChart";

const series = (id: number, overrides: Partial<SeriesIdentity> = {}): SeriesIdentity => ({
  id,
  suite: "fio-sync-vs-async",
  benchmark: "fio-randread-4k",
  params: { direct: 0 },
  language: "c",
  implementation: "fio/sync",
  mode: "sync",
  variant: null,
  hardware: "m",
  branch: "main",
  metric: "latency",
  unit: "ns",
  base_unit: "s",
  direction: "lower",
  ...overrides,
});

type PointFields = Pick<HistoryPoint, "run_id" | "started_at" | "value" | "unit" | "value_base"> &
  Partial<HistoryPoint>;

const point = (fields: PointFields): HistoryPoint => ({ stats: null, count: 1, ...fields });

const history = (s: SeriesIdentity, points: PointFields[]): SeriesHistory => ({
  series: s,
  points: points.map(point),
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
    // Sync and posixaio of one language: each series its own colour, the same on every chart.
    const styles = seriesStyles(["1", "2"]);
    expect(chart?.lines.map((l) => ({ color: l.color, dash: l.dash, marker: l.marker }))).toEqual([
      styles.get("1"),
      styles.get("2"),
    ]);
    expect(chart?.lines[0]?.color).not.toBe(chart?.lines[1]?.color);
    expect(chart?.lines[0]?.label).toBe("c · fio/sync · sync — fio-randread-4k (direct=0), latency, m");
    expect(chart?.direction).toBe("lower");
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
      history(series(2, { metric: "iops", unit: "ops/s", base_unit: "ops/s", direction: "higher" }), []),
    ]);
    expect(charts.map((c) => c.key)).toEqual(["s", "ops/s"]);
    const points = charts[0]?.lines[0]?.points ?? [];
    expect(points[0]?.band?.map((v) => Number(v.toFixed(6)))).toEqual([1, 3]);
    expect(points[1]?.band?.map((v) => Number(v.toFixed(6)))).toEqual([1.5, 4]);
    expect(points[1]?.count).toBe(7);
    expect(charts[1]?.lines[0]?.points).toEqual([]);
  });

  it("says when the directions of one chart's series differ", () => {
    const [chart] = buildHistoryCharts([
      history(series(1), []),
      history(series(2, { metric: "other", direction: "higher" }), []),
    ]);
    expect(chart?.direction).toBe("mixed");
    expect(chart?.metrics).toEqual(["latency", "other"]);
  });
});

describe("line labels", () => {
  it("name the branch when a chart holds series of several branches", () => {
    const point = { run_id: "a", started_at: "2025-03-20T00:00:00Z", value: 1, unit: "s", value_base: 1 };
    const [alone] = buildHistoryCharts([history(series(1), [point])]);
    expect(alone?.lines[0]?.label).not.toContain("branch");
    const [both] = buildHistoryCharts([
      history(series(1), [point]),
      history(series(2, { branch: "feature-x" }), [point]),
    ]);
    expect(both?.lines.map((l) => l.label.split(", ").at(-1))).toEqual(["branch main", "branch feature-x"]);
    expect(both?.lines[0]?.color).not.toEqual(both?.lines[1]?.color);
  });
});

describe("pointRows", () => {
  it("lists each chart's points, line by line, with that chart's format and unit", () => {
    const charts = buildHistoryCharts([
      history(series(1), [
        { run_id: "a", started_at: "2025-03-20T00:00:00Z", value: 1000, unit: "ns", value_base: 1e-6 },
        { run_id: "b", started_at: "2025-03-21T00:00:00Z", value: 1100, unit: "ns", value_base: 1.1e-6 },
      ]),
      history(series(2, { metric: "iops", unit: "ops/s", base_unit: "ops/s", direction: "higher" }), [
        { run_id: "c", started_at: "2025-03-20T00:00:00Z", value: 5, unit: "ops/s", value_base: 5 },
      ]),
    ]);
    const rows = pointRows(charts);
    expect(rows.map((r) => [r.line.key, r.point.runId])).toEqual(
      charts.flatMap((c) => c.lines.flatMap((l) => l.points.map((p) => [l.key, p.runId]))),
    );
    expect(rows.map((r) => r.point.runId).sort()).toEqual(["a", "b", "c"]);
    const first = rows.find((r) => r.point.runId === "a");
    expect(first?.unit).toBe(charts.find((c) => c.lines.some((l) => l.key === "1"))?.scale.label);
    expect(first?.format(first.point.value)).toMatch(/^1(\.00)?\s?µs$/);
  });
});

describe("outliers", () => {
  it("mark the points of the runs a maintainer left out, in their series only", () => {
    const at = (run_id: string, day: number) => ({
      run_id,
      started_at: `2025-03-${10 + day}T00:00:00Z`,
      value: 1,
      unit: "s",
      value_base: 1,
    });
    const [chart] = buildHistoryCharts(
      [history(series(1), [at("a", 0), at("b", 1)]), history(series(2), [at("b", 1)])],
      new Map([[1, new Set(["b"])]]),
    );
    expect(chart?.lines.map((l) => l.points.map((p) => p.outlier))).toEqual([[false, true], [false]]);
  });
});
