import { describe, expect, it } from "vitest";
import { scaleFor } from "../../lib/units";
import {
  type BarChartModel,
  barData,
  chartLines,
  chartSlices,
  groupedBarChartHeight,
  linearTicks,
} from "./barChartModel";

const bar = (key: string) => ({ key, label: `impl ${key}`, mode: null, color: "#000" });
const cell = (value: number, seriesId: number) => ({ value, error: null, seriesId });

const chart: BarChartModel = {
  key: "time_per_op [s]",
  title: "file-write-tiny",
  metric: "time_per_op",
  direction: "lower",
  scale: scaleFor([1], "s"),
  bars: [bar("a"), bar("b")],
  rows: [
    { key: "w1", label: "workload 1", cells: { a: cell(1, 10), b: cell(2, 11) } },
    { key: "w2", label: "workload 2", cells: { b: cell(3, 12) } },
  ],
};

describe("chartLines", () => {
  it("puts each group's heading before only the bars it has, in the chart's bar order", () => {
    expect(chartLines(chart).map((l) => [l.kind, l.key, l.label])).toEqual([
      ["group", "w1", "workload 1"],
      ["bar", "w1|a", "impl a"],
      ["bar", "w1|b", "impl b"],
      ["group", "w2", "workload 2"],
      ["bar", "w2|b", "impl b"],
    ]);
  });

  it("keeps each bar's cell for the tooltip and the click", () => {
    const last = chartLines(chart).at(-1);
    expect(last?.kind === "bar" && last.cell).toEqual({ value: 3, error: null, seriesId: 12 });
  });

  it("names each bar by its group when the chart has one implementation", () => {
    const single = { bars: [bar("b")], rows: chart.rows };
    expect(chartLines(single).map((l) => [l.kind, l.key, l.label])).toEqual([
      ["bar", "w1", "workload 1"],
      ["bar", "w2", "workload 2"],
    ]);
  });

  it("draws nothing without groups", () => {
    expect(chartLines({ bars: chart.bars, rows: [] })).toEqual([]);
  });
});

describe("barData", () => {
  it("gives bars their value and whisker offsets, and group headings none", () => {
    const withError = {
      ...chart,
      rows: [
        {
          key: "w1",
          label: "workload 1",
          cells: { a: { value: 5, error: [1, 2] as [number, number], seriesId: 1 } },
        },
      ],
    };
    expect(barData(chartLines(withError)).map((d) => [d.kind, d.value, d.error])).toEqual([
      ["group", undefined, undefined],
      ["bar", 5, [1, 2]],
    ]);
  });
});

describe("linearTicks", () => {
  const datum = (value: number | undefined, error?: [number, number]) =>
    ({ value, error }) as Parameters<typeof linearTicks>[0][number];

  it("runs from zero past the highest whisker end, in nice steps", () => {
    expect(linearTicks([datum(undefined), datum(3.97, [0.12, 0.2]), datum(1.31)])).toEqual([0, 2, 4, 6, 8]);
    expect(linearTicks([datum(64.6), datum(147)])).toEqual([0, 40, 80, 120, 160]);
  });

  it("reaches below zero for a whisker that does", () => {
    expect(linearTicks([datum(1, [3, 0]), datum(5)])).toEqual([-2, 0, 2, 4, 6]);
  });

  it("is undefined for a chart without a bar", () => {
    expect(linearTicks([datum(undefined)])).toBeUndefined();
  });
});

describe("groupedBarChartHeight", () => {
  it("grows with the lines drawn and with labels that wrap on a phone", () => {
    const one = { ...chart, rows: chart.rows.slice(0, 1) };
    // 3 lines (a heading, two bars) of 22 px, plus the axis: 40 + 3 × 22.
    expect(groupedBarChartHeight(one, false)).toBe(106);
    expect(groupedBarChartHeight(chart, false)).toBeGreaterThan(groupedBarChartHeight(one, false));
    const long = {
      ...one,
      rows: [
        { ...chart.rows[0], key: "w", label: "a-rather-long-workload (size=1MiB, depth=32)", cells: {} },
      ],
    };
    expect(groupedBarChartHeight(long, true)).toBeGreaterThan(groupedBarChartHeight(long, false));
  });
});

describe("chartSlices", () => {
  const tall = {
    bars: [bar("a"), bar("b")],
    rows: Array.from({ length: 50 }, (_, i) => ({
      key: `w${i}`,
      label: `workload ${i}`,
      cells: { a: cell(1, 2 * i), b: cell(2, 2 * i + 1) },
    })),
  };

  it("leaves a chart that fits in one piece whole", () => {
    expect(chartSlices(chart, false)).toEqual([
      { start: 0, end: 5, height: groupedBarChartHeight(chart, false), offset: 0 },
    ]);
  });

  it("cuts a tall chart into pieces of its lines that stack to its height", () => {
    const slices = chartSlices(tall, false, 40);
    // 150 lines: 50 groups of a heading and two bars.
    expect(slices.map((s) => [s.start, s.end])).toEqual([
      [0, 40],
      [40, 80],
      [80, 120],
      [120, 150],
    ]);
    const total = slices.reduce((sum, s) => sum + s.height, 0);
    expect(total).toBeCloseTo(groupedBarChartHeight(tall, false), 9);
  });

  it("gives each line the height it has in the whole chart", () => {
    const [first, second, , last] = chartSlices(tall, false, 40);
    // The whole chart's plot: its height less the margins (4 + 16) and the axis (30), over 150 lines.
    const band = (groupedBarChartHeight(tall, false) - 50) / 150;
    expect(first?.height).toBeCloseTo(4 + 40 * band, 9);
    expect(second?.height).toBeCloseTo(40 * band, 9);
    expect(second?.offset).toBeCloseTo(40 * band, 9);
    expect(last?.height).toBeCloseTo(30 * band + 46, 9);
  });
});
