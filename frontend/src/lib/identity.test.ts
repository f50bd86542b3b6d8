import { describe, expect, it } from "vitest";
import { formatParams, implementationLabel, modeRank, workloadLabel } from "./identity";

describe("identity labels", () => {
  it("formats params and workloads", () => {
    expect(formatParams({ writes: 10000, payload_bytes: 13 })).toBe("writes=10000, payload_bytes=13");
    expect(formatParams(null)).toBe("");
    expect(workloadLabel("fio-randread-4k", { direct: 0 })).toBe("fio-randread-4k (direct=0)");
    expect(workloadLabel("x", {})).toBe("x");
  });
  it("joins the implementation parts that exist", () => {
    expect(
      implementationLabel({ language: "dart", implementation: "dart:io", mode: "async", variant: null }),
    ).toBe("dart · dart:io · async");
  });
  it("sorts sync before async before anything else", () => {
    const modes = ["other", null, "async", "sync"];
    expect(modes.sort((a, b) => modeRank(a) - modeRank(b))).toEqual(["sync", "async", "other", null]);
  });
});
