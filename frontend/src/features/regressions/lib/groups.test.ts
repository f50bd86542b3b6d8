import { describe, expect, it } from "vitest";
import { formatDuration, groupTitle, untriagedCount } from "./groups";

describe("groupTitle", () => {
  it("counts each direction and names the commit", () => {
    expect(
      groupTitle({
        by_direction: { regression: 50, improvement: 1 },
        cause: "commit",
        commit: "0a".repeat(20),
      }),
    ).toBe("50 regressions, 1 improvement at commit 0a0a0a0a0a0a");
  });
  it("says when the cause is a run or a maintainer's split", () => {
    expect(groupTitle({ by_direction: { regression: 1 }, cause: "run", commit: null })).toBe(
      "1 regression in one run",
    );
    expect(groupTitle({ by_direction: { improvement: 2 }, cause: "apart", commit: null })).toBe(
      "2 improvements set apart",
    );
  });
});

describe("untriagedCount", () => {
  it("is zero when no change awaits triage", () => {
    expect(untriagedCount({ by_status: { fixed: 3 } })).toBe(0);
    expect(untriagedCount({ by_status: { untriaged: 4, fixed: 1 } })).toBe(4);
  });
});

describe("formatDuration", () => {
  it("picks a unit people read", () => {
    expect(formatDuration(null)).toBe("–");
    expect(formatDuration(42)).toBe("42 s");
    expect(formatDuration(720)).toBe("12 min");
    expect(formatDuration(5.5 * 3600)).toBe("5.5 h");
    expect(formatDuration(3.25 * 86_400)).toBe("3.3 days");
  });
});
