import { describe, expect, it } from "vitest";
import { type RatioBar, ratioBarLayout } from "./ratioBarModel";

const bar = (label: string, text: string): RatioBar => ({
  key: label,
  label,
  logRatio: 0.3,
  error: null,
  wording: { text, better: false },
  ratio: 2,
});

describe("ratioBarLayout", () => {
  it("keeps every bar at least 40 px tall, plus room for the axis", () => {
    expect(ratioBarLayout([bar("a", "async 2× slower")], false).height).toBe(90);
    expect(ratioBarLayout([bar("a", "x"), bar("b", "y")], false).height).toBe(130);
  });

  it("wraps labels shorter on a phone, and makes room for the wrapped lines", () => {
    const long = [
      bar("dart:io sequential writes=10000 payload_bytes=13 with a long tail", "async 2× slower"),
    ];
    const wide = ratioBarLayout(long, false);
    const narrow = ratioBarLayout(long, true);
    expect([wide.labelChars, narrow.labelChars]).toEqual([44, 18]);
    expect(narrow.height).toBeGreaterThan(wide.height);
  });

  it("looks each label's wording up, for the bold line under it", () => {
    const { wordingByLabel } = ratioBarLayout(
      [bar("a", "async 2× slower"), bar("b", "about the same")],
      false,
    );
    expect(wordingByLabel.get("b")).toBe("about the same");
  });
});
