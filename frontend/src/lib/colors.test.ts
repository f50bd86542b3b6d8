import { describe, expect, it } from "vitest";
import { languageColor, modeColor, OKABE_ITO } from "./colors";

describe("colours", () => {
  it("gives each language one stable colour", () => {
    expect(languageColor("dart")).toBe(OKABE_ITO.blue);
    expect(languageColor("zig")).toBe(languageColor("zig"));
    expect(Object.values(OKABE_ITO)).toContain(languageColor("zig"));
  });
  it("keeps sync and async in separate colour families", () => {
    const sync = [0, 1, 2].map((i) => modeColor("sync", i));
    const async = [0, 1, 2].map((i) => modeColor("async", i));
    expect(sync.some((c) => async.includes(c))).toBe(false);
    expect(modeColor(null)).toBe(OKABE_ITO.grey);
    expect(modeColor("blocking")).toBe(OKABE_ITO.grey);
    expect(modeColor("sync", 3)).toBe(modeColor("sync", 0));
  });
});
