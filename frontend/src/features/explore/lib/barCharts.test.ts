import { describe, expect, it } from "vitest";
import { type BarChartModel, chartLines } from "../../../components/charts/barChartModel";
import { languageColor, OKABE_ITO } from "../../../lib/colors";
import { buildBarCharts, type SeriesLatest } from "./barCharts";

type Overrides = Partial<SeriesLatest> & {
  value: number;
  unit?: string;
  base?: number;
  stats?: { min: number; max: number };
};

let nextId = 1;

function series(overrides: Overrides): SeriesLatest {
  const { value, unit = "us", base = value * 1e-6, stats = null, ...rest } = overrides;
  return {
    id: nextId++,
    suite: "dart-async-file-writes",
    benchmark: "file-write-tiny",
    params: { writes: 10000 },
    language: "dart",
    implementation: "dart:io",
    mode: "sync",
    variant: "sequential",
    hardware: "m1",
    branch: "main",
    metric: "time_per_op",
    base_unit: "s",
    direction: "lower",
    latest: { value, unit, value_base: base, stats },
    ...rest,
  };
}

describe("buildBarCharts", () => {
  it("puts sync and async of one workload in one group with distinct colours", () => {
    const [chart] = buildBarCharts([series({ value: 57.444 }), series({ value: 119.898, mode: "async" })]);
    expect(chart?.rows).toHaveLength(1);
    expect(chart?.bars.map((b) => [b.label, b.color])).toEqual([
      ["dart · dart:io · sync · sequential", OKABE_ITO.blue],
      ["dart · dart:io · async · sequential", OKABE_ITO.vermillion],
    ]);
    expect(chart?.scale.label).toBe("µs");
    const cells = Object.values(chart?.rows[0]?.cells ?? {}).map((c) => c.value);
    expect(cells[0]).toBeCloseTo(57.444);
    expect(cells[1]).toBeCloseTo(119.898);
    expect(chart?.direction).toBe("lower");
  });

  it("colours bars without a mode by language", () => {
    const [chart] = buildBarCharts([series({ value: 1, mode: null, language: "go" })]);
    expect(chart?.bars[0]?.color).toBe(languageColor("go"));
  });

  it("makes one chart per benchmark, titled by it, and one group per params in numeric order", () => {
    const charts = buildBarCharts([
      series({ value: 1, params: { writes: 30000 } }),
      series({ value: 2, params: { writes: 10000 } }),
      series({ value: 3, benchmark: "file-write-big", params: {} }),
      series({ value: 4, benchmark: "case-10" }),
      series({ value: 5, benchmark: "case-9" }),
    ]);
    expect(charts.map((c) => c.title)).toEqual(["case-9", "case-10", "file-write-big", "file-write-tiny"]);
    expect(charts[3]?.rows.map((r) => r.label)).toEqual(["writes=10000", "writes=30000"]);
    expect(charts[2]?.rows.map((r) => r.label)).toEqual(["no params"]);
  });

  it("splits charts by metric and unit dimension and compares mixed units in base units", () => {
    const charts = buildBarCharts([
      series({ value: 943, unit: "ns", base: 943e-9 }),
      series({ value: 31.41, unit: "us", base: 31.41e-6, mode: "async" }),
      series({
        value: 762000,
        unit: "ops/s",
        base: 762000,
        metric: "iops",
        base_unit: "ops/s",
        direction: "higher",
      }),
    ]);
    expect(charts.map((c) => c.key)).toEqual([
      "file-write-tiny · iops [ops/s]",
      "file-write-tiny · time_per_op [s]",
    ]);
    const time = charts[1];
    expect(time?.scale.label).toBe("µs");
    expect(Object.values(time?.rows[0]?.cells ?? {}).map((c) => Number(c.value.toFixed(3)))).toEqual([
      0.943, 31.41,
    ]);
    expect(charts[0]?.direction).toBe("higher");
  });

  it("turns stats.min and max into error offsets in display units", () => {
    const [chart] = buildBarCharts([series({ value: 87.5, stats: { min: 84, max: 91 } })]);
    const cell = Object.values(chart?.rows[0]?.cells ?? {})[0];
    expect(cell?.error?.[0]).toBeCloseTo(3.5);
    expect(cell?.error?.[1]).toBeCloseTo(3.5);
  });

  it("names the suite when a chart mixes suites", () => {
    const [chart] = buildBarCharts([
      series({ value: 1 }),
      series({ value: 2, suite: "other", hardware: "m2" }),
    ]);
    expect(chart?.rows.map((r) => r.label)).toEqual([
      "writes=10000 [dart-async-file-writes]",
      "writes=10000 [other]",
    ]);
  });

  it("names the hardware in group labels only when a suite has several machines", () => {
    const [chart] = buildBarCharts([series({ value: 1 }), series({ value: 2, hardware: "m2" })]);
    expect(chart?.rows.map((r) => r.label)).toEqual(["writes=10000 [m1]", "writes=10000 [m2]"]);
  });

  it("leaves out series without a value", () => {
    expect(buildBarCharts([{ ...series({ value: 1 }), latest: null }])).toEqual([]);
  });

  it("says when directions differ within a chart", () => {
    const [chart] = buildBarCharts([
      series({ value: 1 }),
      series({ value: 2, direction: "higher", mode: "async" }),
    ]);
    expect(chart?.direction).toBe("mixed");
  });
});

describe("chart lines of a built chart", () => {
  it("puts each group's heading before only the bars it has, clicking through to the series", () => {
    const sync = series({ value: 1 });
    const [chart] = buildBarCharts([
      sync,
      series({ value: 2, mode: "async" }),
      series({ value: 3, params: { writes: 30000 }, variant: "future-wait-3", mode: "async" }),
    ]);
    const lines = chartLines(chart as BarChartModel);
    expect(lines.map((l) => [l.kind, l.label])).toEqual([
      ["group", "writes=10000"],
      ["bar", "dart · dart:io · sync · sequential"],
      ["bar", "dart · dart:io · async · sequential"],
      ["group", "writes=30000"],
      ["bar", "dart · dart:io · async · future-wait-3"],
    ]);
    const [, first] = lines;
    expect(first?.kind === "bar" && first.cell.seriesId).toBe(sync.id);
  });
});
