import { describe, expect, it } from "vitest";
import type { ModePair, ModeSide } from "../../../api/types";
import { allRatioRows, buildRatioSections, sidesLabel } from "./ratioRows";

type SideFields = Pick<ModeSide, "series_id" | "value" | "unit" | "value_base"> & Partial<ModeSide>;

const side = (fields: SideFields): ModeSide => ({
  run_id: "r",
  started_at: "2025-03-20T00:00:00Z",
  implementation: "dart:io",
  variant: "sequential",
  // The params the side does not share with its pair; none by default.
  params: {},
  stats: null,
  ...fields,
});

function pair(overrides: Partial<ModePair> = {}): ModePair {
  return {
    suite: "dart-async-file-writes",
    benchmark: "file-write-tiny",
    params: { writes: 10000 },
    language: "dart",
    implementation: "dart:io",
    hardware: "m1",
    metric: "time_per_op",
    base_unit: "s",
    direction: "lower",
    sync: side({ series_id: 1, value: 57.444, unit: "us", value_base: 57.444e-6 }),
    async: side({ series_id: 2, value: 119.898, unit: "us", value_base: 119.898e-6 }),
    async_over_sync: 119.898 / 57.444,
    interval: null,
    ...overrides,
  };
}

describe("buildRatioSections", () => {
  it("groups by language and words each ratio", () => {
    const sections = buildRatioSections([
      pair(),
      pair({ language: "c", implementation: "fio", metric: "latency", async_over_sync: 31410 / 943 }),
    ]);
    expect(sections.map((s) => s.language)).toEqual(["c", "dart"]);
    const dart = sections[1]?.rows[0];
    expect(sections[1]?.groups[0]).toMatchObject({
      title: "file-write-tiny (writes=10000)",
      sides: "dart:io sequential",
    });
    expect(dart?.label).toBe("time_per_op");
    expect(dart?.wording.text).toBe("async 2.09× slower");
    expect(dart?.logRatio).toBeCloseTo(Math.log10(2.0872), 4);
    expect(dart?.error).toBeNull();
    expect(sections[0]?.rows[0]?.wording.text).toBe("async 33.3× slower");
  });
  it("groups by workload and keeps differing sides in the row labels", () => {
    const base = pair();
    const [section] = buildRatioSections([
      base,
      pair({ async: { ...base.async, variant: "future-wait-3", series_id: 3 }, async_over_sync: 1.05 }),
      pair({ params: { writes: 1000 } }),
    ]);
    expect(section?.groups.map((g) => g.title)).toEqual([
      "file-write-tiny (writes=1000)",
      "file-write-tiny (writes=10000)",
    ]);
    expect(section?.groups[1]?.sides).toBe("");
    expect(section?.groups[1]?.rows.map((r) => r.label)).toEqual([
      "time_per_op · async dart:io future-wait-3 vs sync dart:io sequential",
      "time_per_op · dart:io sequential",
    ]);
    expect(section?.rows).toHaveLength(3);
  });

  it("turns the interval into log offsets", () => {
    const [section] = buildRatioSections([
      pair({
        sync: side({ series_id: 1, value: 10, unit: "ms", value_base: 0.01, stats: { min: 8, max: 12 } }),
        async: side({ series_id: 2, value: 20, unit: "ms", value_base: 0.02 }),
        async_over_sync: 2,
        interval: { estimate: 2, low: 20 / 12, high: 20 / 8, level: null, method: "range", df: null },
      }),
    ]);
    const row = section?.rows[0];
    expect(row?.interval).toMatchObject({ method: "range" });
    expect(row?.error?.[0]).toBeCloseTo(Math.log10(2) - Math.log10(20 / 12), 10);
    expect(row?.error?.[1]).toBeCloseTo(Math.log10(20 / 8) - Math.log10(2), 10);
  });
  it("leaves out pairs without a positive ratio", () => {
    expect(buildRatioSections([pair({ async_over_sync: 0 })])).toEqual([]);
  });
});

describe("sidesLabel", () => {
  it("names what differs between the sides", () => {
    const p = pair();
    expect(sidesLabel(p)).toBe("dart:io sequential");
    expect(sidesLabel({ ...p, async: { ...p.async, variant: "future-wait-3" } })).toBe(
      "async dart:io future-wait-3 vs sync dart:io sequential",
    );
    const fio = pair({
      implementation: "fio/sync",
      params: { bs: "4k" },
      sync: { ...p.sync, implementation: "fio/sync", variant: null, params: { bs: "4k" } },
      async: { ...p.async, implementation: "fio/posixaio", variant: null, params: { bs: "4k", iodepth: 32 } },
    });
    expect(sidesLabel(fio)).toBe("async fio/posixaio iodepth=32 vs sync fio/sync");
  });
});

describe("allRatioRows", () => {
  it("lists every section's rows, section by section, for the table", () => {
    const sections = buildRatioSections([
      pair(),
      pair({ language: "c", implementation: "fio", metric: "latency", async_over_sync: 31410 / 943 }),
    ]);
    expect(allRatioRows(sections).map((r) => r.pair.language)).toEqual(["c", "dart"]);
    expect(allRatioRows([])).toEqual([]);
  });
});
