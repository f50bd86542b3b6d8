import { describe, expect, it } from "vitest";
import { boardGroups, chooseGroup, factorText, paramChoices, rankBoard } from "./board";
import { boardSeries, restThroughput, tinyWrites } from "./fixtures";

describe("paramChoices", () => {
  it("offers what differs between series, the machine included", () => {
    expect(paramChoices(restThroughput()).map((c) => c.key)).toEqual(["approx", "cores", "hardware"]);
    const cores = paramChoices(restThroughput()).find((c) => c.key === "cores");
    expect(cores?.values).toEqual(["1", "8", "40"]);
  });
});

describe("boardGroups", () => {
  it("does not split a board on approx when approx is merged", () => {
    const groups = boardGroups(restThroughput(), ["approx"]);
    expect(groups.map((g) => [g.key, g.series.length])).toEqual([
      ["do-8vcpu-dedicated · connections=1000, cores=1, duration_s=60, wrk_threads=4", 2],
      ["do-8vcpu-dedicated · connections=1000, cores=8, duration_s=60, wrk_threads=4", 2],
      ["do-40vcpu-dedicated · connections=1000, cores=40, duration_s=60, wrk_threads=4", 1],
    ]);
  });

  it("splits on approx when the reader keeps it", () => {
    const groups = boardGroups(restThroughput(), []);
    expect(groups.every((g) => g.series.length === 1 || g.key.includes("cores=1"))).toBe(true);
    expect(groups).toHaveLength(4);
  });

  it("merges machines and params the reader chooses", () => {
    expect(
      boardGroups(restThroughput(), ["approx", "cores", "hardware"]).map((g) => g.series.length),
    ).toEqual([5]);
  });

  it("leaves out series without a value", () => {
    expect(boardGroups([boardSeries({ value: null })], [])).toEqual([]);
  });
});

describe("rankBoard", () => {
  const eightCores = () => {
    const groups = boardGroups(restThroughput(), ["approx"]);
    return chooseGroup(
      groups,
      "do-8vcpu-dedicated · connections=1000, cores=8, duration_s=60, wrk_threads=4",
    );
  };

  it("ranks higher-is-better best first: Go 3.39× Conduit", () => {
    const entries = rankBoard(eightCores() as NonNullable<ReturnType<typeof eightCores>>, ["approx"], null);
    expect(entries.map((e) => [e.rank, e.label, e.value])).toEqual([
      [1, "go · net/http", 61000],
      [2, "dart · conduit", 18000],
    ]);
    expect(entries[0]?.vsBest).toEqual({ factor: 1, verdict: "same", better: null });
    expect(entries[1]?.vsBest.verdict).toBe("slower");
    expect(entries[1]?.vsBest.factor).toBeCloseTo(3.389, 3);
    expect(entries[1]?.bar).toBeCloseTo(18000 / 61000);
    expect(entries.map((e) => e.detail)).toEqual(["", "approx."]);
  });

  it("ranks lower-is-better best first and compares with a chosen baseline", () => {
    const series = tinyWrites().filter((s) => s.params.writes === 10000);
    const [group] = boardGroups(series, ["approx"]);
    const sync = series.find((s) => s.mode === "sync");
    const entries = rankBoard(group as NonNullable<typeof group>, ["approx"], sync?.id ?? null);
    expect(entries.map((e) => e.series.mode)).toEqual(["sync", "async"]);
    expect(entries[1]?.vsBaseline?.verdict).toBe("slower");
    expect(entries[1]?.vsBaseline?.factor).toBeCloseTo(119.898 / 57.444, 6);
    expect(entries[0]?.vsBaseline).toEqual({ factor: 1, verdict: "same", better: null });
  });

  it("names what tells merged series apart", () => {
    const [group] = boardGroups(restThroughput(), ["approx", "cores", "hardware"]);
    const entries = rankBoard(group as NonNullable<typeof group>, ["approx", "cores", "hardware"], null);
    expect(entries[0]?.detail).toBe("cores=40 · hardware=do-40vcpu-dedicated");
    expect(entries.at(-1)?.detail).toBe("approx. · cores=1 · hardware=do-8vcpu-dedicated");
  });
});

describe("chooseGroup", () => {
  it("opens the asked group, else the largest", () => {
    const groups = boardGroups(restThroughput(), ["approx"]);
    expect(chooseGroup(groups, "nope")?.series).toHaveLength(2);
    expect(chooseGroup(groups, groups[0]?.key ?? "")).toBe(groups[0]);
    expect(chooseGroup([], "")).toBeNull();
  });
});

describe("factorText", () => {
  it("says best, else how far behind the best", () => {
    const [group] = boardGroups(restThroughput(), ["approx", "cores", "hardware"]);
    const entries = rankBoard(group as NonNullable<typeof group>, ["approx", "cores", "hardware"], null);
    expect(entries.map((e) => factorText(e, null))).toEqual([
      "best",
      "1.17× slower",
      "3.97× slower",
      "5.5× slower",
      "13× slower",
    ]);
  });

  it("marks the baseline and words the others against it", () => {
    const [group] = boardGroups(restThroughput(), ["approx", "cores", "hardware"]);
    const conduit = group?.series.find((s) => s.implementation === "conduit")?.id ?? null;
    const entries = rankBoard(group as NonNullable<typeof group>, ["approx", "cores", "hardware"], conduit);
    expect(entries.map((e) => factorText(e, conduit))).toEqual([
      "3.97× faster",
      "3.39× faster",
      "baseline",
      "1.38× slower",
      "3.27× slower",
    ]);
  });
});
