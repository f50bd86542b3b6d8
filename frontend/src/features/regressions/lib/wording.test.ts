import { describe, expect, it } from "vitest";
import { TRIAGE_STATUSES } from "../../../api/vocabulary";
import { describeChanges, formatConfidence, formatSize, parseLinks, STATUSES } from "./wording";

const latency = { base_unit: "s", direction: "lower" as const };
const throughput = { base_unit: "ops/s", direction: "higher" as const };
const memory = { base_unit: "B", direction: "lower" as const };

describe("formatSize", () => {
  it("words a slower latency with its sign", () => {
    expect(formatSize({ direction: "regression", relative_change: 0.3, series: latency })).toBe(
      "+30.0 % slower",
    );
  });

  it("words a fall in throughput as slower, a rise as faster", () => {
    expect(formatSize({ direction: "regression", relative_change: -0.2, series: throughput })).toBe(
      "−20.0 % slower",
    );
    expect(formatSize({ direction: "improvement", relative_change: 1.5, series: throughput })).toBe(
      "+150 % faster",
    );
  });

  it("words other units as worse or better", () => {
    expect(formatSize({ direction: "regression", relative_change: 0.125, series: memory })).toBe(
      "+12.5 % worse",
    );
    expect(formatSize({ direction: "improvement", relative_change: -0.1, series: memory })).toBe(
      "−10.0 % better",
    );
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
    expect(describeChanges({ detected: { relative_change: 0.3, confidence: 0.99 } })).toEqual([
      "detected +30.0 %, confidence 99 %",
    ]);
    expect(describeChanges({ retracted: [false, true] })).toEqual([
      "retracted: later runs no longer show it",
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
