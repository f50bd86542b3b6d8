import { describe, expect, it } from "vitest";
import { OKABE_ITO } from "../../../lib/colors";
import { restThroughput, tinyWrites } from "./fixtures";
import { lineStyles, logAxisFits, sweepLines, sweepParams, sweepRows } from "./sweep";

describe("sweepParams", () => {
  it("finds numeric params taking several values", () => {
    expect(sweepParams(tinyWrites(), ["approx"])).toEqual(["writes"]);
    expect(sweepParams(restThroughput(), ["approx"])).toEqual(["cores"]);
  });

  it("leaves out merged params", () => {
    expect(sweepParams(tinyWrites(), ["writes"])).toEqual([]);
  });
});

describe("sweepLines", () => {
  it("draws one line per mode, in order of the param", () => {
    const lines = sweepLines(tinyWrites(), "writes", ["approx"]);
    expect(lines.map((l) => l.label)).toEqual([
      "dart · dart:io · async · sequential",
      "dart · dart:io · sync · sequential",
    ]);
    const sync = lines.find((l) => l.mode === "sync");
    expect(sync?.points.map((p) => p.x)).toEqual([1000, 10000, 50000]);
    expect(sync?.points[1]?.y).toBeCloseTo(57.444e-6);
  });

  it("keeps machines apart unless merged, and names them where lines differ", () => {
    const apart = sweepLines(restThroughput(), "cores", ["approx"]);
    const go = apart.filter((l) => l.label.startsWith("go"));
    expect(go.map((l) => [l.label, l.points.map((p) => p.x)])).toEqual([
      ["go · net/http · hardware=do-8vcpu-dedicated", [1, 8]],
      ["go · net/http · hardware=do-40vcpu-dedicated", [40]],
    ]);
    const merged = sweepLines(restThroughput(), "cores", ["approx", "hardware"]);
    expect(merged.find((l) => l.label === "go · net/http")?.points.map((p) => p.y)).toEqual([
      13000, 61000, 71500,
    ]);
  });

  it("reads a span of ten times or more on a log axis", () => {
    expect(logAxisFits(sweepLines(tinyWrites(), "writes", []))).toBe(true);
    expect(logAxisFits([{ key: "k", label: "l", mode: null, points: [{ x: 2, y: 1, seriesId: 1 }] }])).toBe(
      false,
    );
  });
});

describe("sweepRows", () => {
  it("puts every line's value at each param value, in display units", () => {
    const lines = sweepLines(restThroughput(), "cores", ["approx"]);
    const rows = sweepRows(lines, (v) => v / 1000);
    expect(rows.map((r) => r.x)).toEqual([1, 8, 40]);
    const go8 = lines.find((l) => l.label === "go · net/http · hardware=do-8vcpu-dedicated");
    expect(rows.map((r) => r.values[go8?.key ?? ""])).toEqual([13, 61, undefined]);
  });
});

describe("lineStyles", () => {
  it("gives sync and async lines their families' colours, distinct within a mode", () => {
    const lines = sweepLines(tinyWrites(), "writes", []);
    const styles = lineStyles([...lines, { ...(lines[0] as (typeof lines)[number]), key: "second async" }]);
    expect(styles[0]?.color).not.toBe(styles[1]?.color);
    expect(styles[2]?.color).not.toBe(styles[0]?.color);
    expect(styles.every((s) => s.dash === undefined)).toBe(true);
  });

  it("gives lines without a mode distinct colours", () => {
    const styles = lineStyles(sweepLines(restThroughput(), "cores", ["approx"]));
    expect(new Set(styles.map((s) => s.color)).size).toBe(styles.length);
  });

  it("never gives a line without a mode yellow, too faint for its legend text on white", () => {
    const line = { key: "a", label: "a", mode: null, points: [] };
    const styles = lineStyles(Array.from({ length: 20 }, (_, i) => ({ ...line, key: String(i) })));
    expect(styles.map((s) => s.color)).not.toContain(OKABE_ITO.yellow);
  });

  it("dashes a line once its mode's colours repeat", () => {
    const line = { key: "a", label: "a", mode: "sync", points: [] };
    const styles = lineStyles([0, 1, 2, 3].map((i) => ({ ...line, key: String(i) })));
    expect(styles.map((s) => s.dash)).toEqual([undefined, undefined, undefined, "6 3"]);
    expect(styles[3]?.color).toBe(styles[0]?.color);
  });
});
