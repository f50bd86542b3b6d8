import { describe, expect, it } from "vitest";
import type { Finding, FindingSide } from "../../../api/types";
import {
  differenceText,
  factorInterval,
  findingBoardHref,
  intervalText,
  sideText,
  studyDating,
} from "./findings";

function side(overrides: Partial<FindingSide>): FindingSide {
  return {
    label: "Go net/http",
    run_id: "3767f3aa-ddb2-4d49-b2a2-aad96d7dcf19",
    run_name: null,
    series_id: 1,
    benchmark: "rest-root-route",
    params: { connections: 1000, cores: 8 },
    language: "go",
    implementation: "net/http",
    mode: null,
    variant: null,
    hardware: "do-8vcpu-dedicated",
    metric: "throughput",
    value: 61000,
    unit: "req/s",
    value_base: 61000,
    stats: null,
    ...overrides,
  };
}

function finding(overrides: Partial<Finding>): Finding {
  return {
    id: 1,
    suite: "go-vs-dart-rest",
    text: "Go net/http 3.39× faster than Conduit",
    ratio: 61000 / 18000,
    factor: 61000 / 18000,
    verdict: "faster",
    interval: null,
    difference_base: 43000,
    base_unit: "req/s",
    direction: "higher",
    context: null,
    note: null,
    numerator: side({}),
    denominator: side({
      label: "Conduit",
      series_id: 2,
      params: { connections: 1000, cores: 8, approx: true },
      language: "dart",
      implementation: "conduit",
      value: 18000,
      value_base: 18000,
    }),
    ...overrides,
  };
}

const range = (low: number, high: number) => ({
  estimate: 1,
  low,
  high,
  level: null,
  method: "range" as const,
  df: null,
});

describe("factorInterval", () => {
  it("is the ratio's interval when the factor is the ratio", () => {
    const interval = factorInterval(finding({ interval: range(60000 / 18000, 62000 / 18000) }));
    expect(interval).toMatchObject({ kind: "range", holdsOne: false });
    expect(interval?.low).toBeCloseTo(3.333, 3);
    expect(intervalText(interval as NonNullable<typeof interval>)).toBe(
      "range 3.33×–3.44× allowed by the reported ranges",
    );
  });

  it("turns over with the factor when the ratio is below 1", () => {
    const interval = factorInterval(
      finding({ ratio: 0.5, interval: { ...range(0.4, 0.625), level: 0.95, method: "delta_log" } }),
    );
    expect(interval?.low).toBeCloseTo(1.6);
    expect(interval?.high).toBeCloseTo(2.5);
    expect(interval?.kind).toBe("confidence");
  });

  it("says when the interval holds no difference", () => {
    const interval = factorInterval(finding({ ratio: 1.023, interval: range(84 / 87, 91 / 84) }));
    expect(intervalText(interval as NonNullable<typeof interval>)).toMatch(
      /holds 1×, so no clear difference$/,
    );
  });

  it("is absent without an interval", () => {
    expect(factorInterval(finding({}))).toBeNull();
  });
});

describe("values", () => {
  it("shows each side in a readable unit and the difference", () => {
    const f = finding({
      numerator: side({ label: "async", value: 2.8, unit: "s", value_base: 2.8 }),
      denominator: side({ label: "sync", value: 1, unit: "s", value_base: 1 }),
      difference_base: 1.8,
      base_unit: "s",
    });
    expect(sideText(f.numerator)).toBe("async: 2.8 s");
    expect(differenceText(f)).toBe("async − sync = 1.8 s");
    expect(differenceText({ ...f, difference_base: -0.0004 })).toBe("async − sync = −400 µs");
  });
});

describe("findingBoardHref", () => {
  it("opens the board of both sides: annotations merged", () => {
    const href = new URL(findingBoardHref(finding({})), "http://x");
    expect(href.pathname).toBe("/leaderboard");
    expect(Object.fromEntries(href.searchParams)).toEqual({
      suite: "go-vs-dart-rest",
      benchmark: "rest-root-route",
      metric: "throughput",
      group: "do-8vcpu-dedicated · connections=1000, cores=8",
    });
  });

  it("merges what else the sides differ in, the machine too", () => {
    const f = finding({
      denominator: side({ params: { connections: 1000, cores: 40 }, hardware: "do-40vcpu-dedicated" }),
    });
    const href = new URL(findingBoardHref(f), "http://x");
    expect(href.searchParams.get("ignore")).toBe("approx,cores,hardware");
    expect(href.searchParams.get("group")).toBe("connections=1000");
  });
});

describe("studyDating", () => {
  it("collects each estimated date's basis once", () => {
    const basis = "the blog's publication date";
    const runs: { tags: Record<string, string> }[] = [
      { tags: { date_estimated: "true", date_basis: basis } },
      { tags: { date_estimated: "true", date_basis: basis } },
      { tags: {} },
    ];
    expect(studyDating(runs)).toEqual({ badge: "2 of 3 dates estimated", bases: [basis] });
    expect(studyDating(runs.slice(0, 2)).badge).toBe("date estimated");
    expect(studyDating([{ tags: {} }])).toEqual({ badge: "", bases: [] });
  });
});
