import { describe, expect, it } from "vitest";
import { isolateSeries, toggleSeries } from "./legendState";

const keys = ["a", "b", "c"];

describe("legend clicks", () => {
  it("toggle hides a shown series and shows a hidden one", () => {
    const hidden = toggleSeries(new Set(), "b");
    expect([...hidden]).toEqual(["b"]);
    expect([...toggleSeries(hidden, "b")]).toEqual([]);
  });

  it("isolate hides every other series, and shows all again when repeated", () => {
    const alone = isolateSeries(new Set(["a"]), keys, "b");
    expect([...alone].sort()).toEqual(["a", "c"]);
    expect([...isolateSeries(alone, keys, "b")]).toEqual([]);
  });

  it("isolating a hidden series shows it", () => {
    expect(isolateSeries(new Set(["a", "b"]), keys, "a").has("a")).toBe(false);
  });
});
