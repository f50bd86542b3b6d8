import { describe, expect, it } from "vitest";
import { languageColor, modeColor, OKABE_ITO, SERIES_MARKERS, SERIES_PALETTE, seriesStyles } from "./colors";

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

describe("series styles", () => {
  const keys = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));
  const styleText = (styles: Map<string, { color: string; dash: string }>) =>
    [...styles.values()].map((s) => `${s.color} ${s.dash}`);

  it("gives every series of a chart its own colour while the palette lasts, all solid", () => {
    const styles = seriesStyles(keys(SERIES_PALETTE.length));
    const colors = [...styles.values()].map((s) => s.color);
    expect(new Set(colors).size).toBe(SERIES_PALETTE.length);
    expect([...styles.values()].every((s) => s.dash === "")).toBe(true);
  });

  it("two series of one language (fio sync and posixaio) differ", () => {
    const styles = seriesStyles(["812", "813"]);
    expect(styles.get("812")?.color).not.toBe(styles.get("813")?.color);
  });

  it("past the palette repeats colours only with another dash", () => {
    const styles = seriesStyles(keys(22));
    expect(new Set(styleText(styles)).size).toBe(22);
    expect(new Set([...styles.values()].map((s) => s.dash)).size).toBe(2);
  });

  it("changes the point shape together with the dash, so single-point series that share a colour differ", () => {
    const styles = [...seriesStyles(keys(40)).values()];
    expect(new Set(styles.map((s) => `${s.color} ${s.marker}`)).size).toBe(40);
    expect(new Set(styles.map((s) => `${s.dash} ${s.marker}`)).size).toBe(SERIES_MARKERS.length);
    expect(styles.filter((s) => s.dash === "").every((s) => s.marker === "circle")).toBe(true);
  });

  it("does not depend on the order the series come in", () => {
    const forward = seriesStyles(keys(9));
    const backward = seriesStyles(keys(9).reverse());
    for (const key of keys(9)) expect(backward.get(key)).toEqual(forward.get(key));
  });

  it("keeps a series' colour when the chart gains or loses series that do not collide with it", () => {
    const alone = seriesStyles(["7"]);
    const many = seriesStyles(["7", "1234", "99"]);
    expect(many.get("7")).toEqual(alone.get("7"));
    expect(seriesStyles(["1234"]).get("1234")).toEqual(many.get("1234"));
  });
});
