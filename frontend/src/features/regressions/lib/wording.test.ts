import { describe, expect, it } from "vitest";
import type { DetectionEvidence } from "../../../api/types";
import { TRIAGE_STATUSES, WORDING_EXAMPLES } from "../../../api/vocabulary";
import {
  describeChanges,
  formatConfidence,
  formatEvidence,
  formatSize,
  parseLinks,
  STATUSES,
  signedPercent,
} from "./wording";

const latency = { base_unit: "s", direction: "lower" as const };
const throughput = { base_unit: "ops/s", direction: "higher" as const };
const memory = { base_unit: "B", direction: "lower" as const };

describe("formatSize", () => {
  it("words a slower latency with its sign", () => {
    expect(formatSize({ direction: "regression", relative_change: 0.3, series: latency })).toBe(
      "+30.0% slower",
    );
  });

  it("words a fall in throughput as slower, a rise as faster", () => {
    expect(formatSize({ direction: "regression", relative_change: -0.2, series: throughput })).toBe(
      "−20.0% slower",
    );
    expect(formatSize({ direction: "improvement", relative_change: 1.5, series: throughput })).toBe(
      "+150% faster",
    );
  });

  it("words other units as worse or better", () => {
    expect(formatSize({ direction: "regression", relative_change: 0.125, series: memory })).toBe(
      "+12.5% worse",
    );
    expect(formatSize({ direction: "improvement", relative_change: -0.1, series: memory })).toBe(
      "−10.0% better",
    );
  });

  it("reads as the service words the same changes", () => {
    for (const example of WORDING_EXAMPLES) {
      const series = { base_unit: example.base_unit, direction: "lower" as const };
      expect(
        formatSize({ direction: example.direction, relative_change: example.relative_change, series }),
      ).toBe(example.text);
    }
  });
});

describe("formatConfidence", () => {
  it("rounds down to whole percent, so only certainty reads 100 %, and clamps", () => {
    expect(formatConfidence(0.978)).toBe("97 %");
    expect(formatConfidence(0.9996)).toBe("99 %");
    expect(formatConfidence(1)).toBe("100 %");
    expect(formatConfidence(1.2)).toBe("100 %");
    expect(formatConfidence(Number.NaN)).toBe("—");
  });
});

describe("parseLinks", () => {
  it("splits on lines and spaces, dropping blanks and repeats", () => {
    expect(parseLinks(" https://a.example/1\n\nhttps://b.example/2 https://a.example/1 ")).toEqual([
      "https://a.example/1",
      "https://b.example/2",
    ]);
  });
});

describe("describeChanges", () => {
  it("states triage changes as before → after", () => {
    expect(describeChanges({ status: ["untriaged", "acknowledged"], note: [null, "allocator"] })).toEqual([
      "status: “untriaged” → “acknowledged”",
      "note: (none) → “allocator”",
    ]);
  });

  it("states what the detector found and retracted", () => {
    expect(
      describeChanges({ detected: { relative_change: 0.3, confidence: 0.99, provisional: false } }),
    ).toEqual(["detected +30.0 %, confidence 99 %"]);
    expect(describeChanges({ retracted: [false, true] })).toEqual([
      "retracted: later runs no longer show it",
    ]);
  });

  it("says new data moved a triaged change, which stays as triaged", () => {
    expect(describeChanges({ moved: [0.3, 0.45] })).toEqual([
      "new data moved it: +30.0 % → +45.0 %; kept as triaged",
    ]);
    expect(describeChanges({ moved: [0.3, null] })).toEqual(["new data no longer shows it; kept as triaged"]);
    expect(describeChanges({ moved: [null, -0.2] })).toEqual([
      "new data moved it: not shown → −20.0 %; kept as triaged",
    ]);
  });

  it("lists links", () => {
    expect(describeChanges({ links: [[], ["https://a.example"]] })).toEqual([
      "links: (none) → https://a.example",
    ]);
  });
});

describe("STATUSES", () => {
  it("lists every status in the vocabulary's order, with what it means", () => {
    expect(STATUSES.map((s) => s.value)).toEqual([...TRIAGE_STATUSES]);
    expect(STATUSES[0]).toEqual({ value: "untriaged", text: "not looked at yet" });
  });
});

const shortStep: DetectionEvidence = {
  runs_before: 3,
  runs_after: 2,
  replicates_used: false,
  test: "student_t",
  p_value: 0.00213,
  interval_low: 0.2614,
  interval_high: 0.3271,
  interval_level: 0.99,
  run_to_run_cv: 0.0058,
  within_run_cv: null,
};

describe("signedPercent", () => {
  it("signs rises with + and falls with a true minus", () => {
    expect(signedPercent(0.2943)).toBe("+29.4 %");
    expect(signedPercent(-0.03)).toBe("−3.0 %");
  });
});

describe("formatEvidence", () => {
  it("words runs on each side, the test, replicates, p and the effect with its interval", () => {
    expect(formatEvidence(shortStep, 0.2943)).toBe(
      "3 runs before, 2 after · Student's t on run levels, replicates not used · p = 0.0021 · " +
        "+29.4 % (99 % interval +26.1 % to +32.7 %)",
    );
  });

  it("says when replicates entered a two-level test, and leaves out an interval not stored", () => {
    const provisional: DetectionEvidence = {
      ...shortStep,
      runs_before: 2,
      runs_after: 1,
      replicates_used: true,
      test: "two_level_t",
      interval_low: null,
      interval_high: null,
    };
    expect(formatEvidence(provisional, -0.1)).toBe(
      "2 runs before, 1 after · two-level t-test (replicates and run-to-run noise), replicates used · " +
        "p = 0.0021 · −10.0 %",
    );
  });
});
