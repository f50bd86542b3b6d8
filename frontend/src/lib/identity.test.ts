import { describe, expect, it } from "vitest";
import {
  formatParam,
  formatParams,
  implementationLabel,
  modeRank,
  seriesChoiceLabel,
  seriesLabel,
  workloadLabel,
} from "./identity";

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
  it("writes params one way, joined as the label needs", () => {
    expect(formatParam("writes", 10000)).toBe("writes=10000");
    expect(formatParams({ writes: 10000, payload_bytes: 13 }, " ")).toBe("writes=10000 payload_bytes=13");
  });
  it("names a series by how and what it measures, and by id among picked ones", () => {
    const s = {
      id: 12,
      language: "dart",
      implementation: "dart:io",
      mode: "async",
      variant: null,
      benchmark: "file-write-tiny",
      params: { writes: 10000 },
      metric: "time_per_op",
    };
    expect(seriesLabel(s)).toBe("dart · dart:io · async — file-write-tiny (writes=10000)");
    expect(seriesChoiceLabel(s)).toBe(
      "#12 dart · dart:io · async — file-write-tiny (writes=10000), time_per_op",
    );
  });
});
