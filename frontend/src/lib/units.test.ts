import { describe, expect, it } from "vitest";
import { UNIT_ALIASES, UNITS, type UnitName } from "../api/vocabulary";
import { directionText, formatNumber, formatValue, measuresSpeed, scaleFor, toBase, unitName } from "./units";

const UNIT_NAMES = Object.keys(UNITS) as UnitName[];

describe("formatValue", () => {
  it("scales times to a readable unit", () => {
    expect(formatValue(1234, "us")).toBe("1.23 ms");
    expect(formatValue(119.898, "us")).toBe("120 µs");
    expect(formatValue(943, "ns")).toBe("943 ns");
    expect(formatValue(31410, "ns")).toBe("31.4 µs");
    expect(formatValue(2.8, "s")).toBe("2.8 s");
    expect(formatValue(0.5, "ms")).toBe("500 µs");
  });
  it("keeps whole numbers with separators at the top of the ladder", () => {
    expect(formatValue(4200, "s")).toBe("4,200 s");
  });
  it("uses binary steps for binary byte units and SI steps for SI ones", () => {
    expect(formatValue(2975, "MiB/s")).toBe("2.91 GiB/s");
    expect(formatValue(2048, "B")).toBe("2 KiB");
    expect(formatValue(1500, "MB/s")).toBe("1.5 GB/s");
  });
  it("uses SI prefixes for rates and counts", () => {
    expect(formatValue(762000, "ops/s")).toBe("762k ops/s");
    expect(formatValue(61000, "req/s")).toBe("61k req/s");
    expect(formatValue(14_300_000, "count")).toBe("14.3M");
    expect(formatValue(600, "count")).toBe("600");
    expect(formatValue(12.5, "percent")).toBe("12.5%");
  });
  it("accepts the micro sign and shows unknown units as they are", () => {
    expect(formatValue(5, "µs")).toBe("5 µs");
    expect(formatValue(3, "furlongs")).toBe("3 furlongs");
  });
  it("can show more digits", () => {
    expect(formatValue(119.898, "us", 6)).toBe("119.898 µs");
  });
});

describe("scaleFor", () => {
  it("picks one unit for all values from the largest", () => {
    const scale = scaleFor([943e-9, 31410e-9], "s");
    expect(scale.label).toBe("µs");
    expect(scale.toDisplay(943e-9)).toBeCloseTo(0.943);
    expect(scale.format(31.41)).toBe("31.4 µs");
  });
  it("falls back to the smallest step for zeros", () => {
    expect(scaleFor([0], "count").label).toBe("count");
    expect(scaleFor([], "s").label).toBe("ns");
  });
});

describe("every unit of the vocabulary", () => {
  it("converts to its base unit by the vocabulary's factor", () => {
    for (const name of UNIT_NAMES) expect(toBase(3, name)).toBe(3 * UNITS[name].factor);
    expect(toBase(2, "KiB")).toBe(2048);
    expect(toBase(7, "furlongs")).toBe(7);
  });
  it("shows a value of one step as itself where its dimension steps through units", () => {
    const shown = Object.fromEntries(UNIT_NAMES.map((name) => [name, formatValue(1, name)]));
    expect(shown).toEqual({
      ns: "1 ns",
      us: "1 µs",
      ms: "1 ms",
      s: "1 s",
      "B/s": "1 B/s",
      "KiB/s": "1 KiB/s",
      "MiB/s": "1 MiB/s",
      "GiB/s": "1 GiB/s",
      "KB/s": "1 KB/s",
      "MB/s": "1 MB/s",
      "GB/s": "1 GB/s",
      B: "1 B",
      KiB: "1 KiB",
      MiB: "1 MiB",
      GiB: "1 GiB",
      "ops/s": "1 ops/s",
      "req/s": "1 req/s",
      count: "1",
      percent: "1%",
    });
  });
  it("is known by its name and by each of its aliases", () => {
    for (const name of UNIT_NAMES) expect(unitName(name)).toBe(name);
    for (const [alias, name] of Object.entries(UNIT_ALIASES)) expect(unitName(alias)).toBe(name);
    expect(unitName("furlongs")).toBeNull();
  });
});

describe("measuresSpeed", () => {
  it("holds for times and rates, not for sizes, counts and percentages", () => {
    expect(["s", "ms", "µs", "ops/s", "req/s", "B/s", "MiB/s"].map(measuresSpeed)).toEqual(
      Array(7).fill(true),
    );
    expect(["B", "GiB", "count", "percent", "furlongs"].map(measuresSpeed)).toEqual(Array(5).fill(false));
  });
});

describe("formatNumber and directionText", () => {
  it("formats", () => {
    expect(formatNumber(2.0869)).toBe("2.09");
    expect(formatNumber(33.3096)).toBe("33.3");
    expect(formatNumber(1234.4)).toBe("1,234");
    expect(directionText("lower")).toBe("lower is better");
    expect(directionText("higher")).toBe("higher is better");
    expect(directionText("mixed")).toBe("direction varies");
  });
});
