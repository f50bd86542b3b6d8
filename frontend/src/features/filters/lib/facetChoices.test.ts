import { describe, expect, it } from "vitest";
import { facetChoices, MATCHES_SHOWN, SHOWN } from "./facetChoices";

const values = Array.from({ length: 300 }, (_, i) => ({ value: `bench-${i}`, count: 300 - i }));
const names = (list: { value: string }[]) => list.map((f) => f.value);

describe("facetChoices", () => {
  it("lists the first few values and counts the rest as hidden", () => {
    const choices = facetChoices(values, []);
    expect(names(choices.listed)).toEqual(names(values.slice(0, SHOWN)));
    expect(choices.total).toBe(300);
    expect(choices.hidden).toBe(300 - SHOWN);
  });

  it("keeps a chosen value listed wherever it sorts", () => {
    const choices = facetChoices(values, ["bench-250"]);
    expect(names(choices.listed)).toEqual([...names(values.slice(0, SHOWN)), "bench-250"]);
  });

  it("keeps a chosen value the service no longer offers, with a count of 0", () => {
    const choices = facetChoices(values.slice(0, 3), ["gone"]);
    expect(choices.listed.at(-1)).toEqual({ value: "gone", count: 0 });
    expect(choices.total).toBe(4);
  });

  it("lists every value when expanded", () => {
    expect(facetChoices(values, [], { expanded: true }).listed).toHaveLength(300);
  });

  it("searches anywhere in a value, ignoring case, and caps the matches", () => {
    const few = facetChoices(values, [], { query: " BENCH-29 " });
    expect(names(few.listed)).toEqual(["bench-29", ...Array.from({ length: 10 }, (_, i) => `bench-29${i}`)]);
    expect(few.hidden).toBe(0);
    const many = facetChoices(values, [], { query: "bench" });
    expect(many.listed).toHaveLength(MATCHES_SHOWN);
    expect(many.hidden).toBe(300 - MATCHES_SHOWN);
  });

  it("keeps chosen values listed under a search that does not match them", () => {
    const choices = facetChoices(values, ["bench-1"], { query: "bench-29" });
    expect(names(choices.listed)[0]).toBe("bench-1");
    expect(choices.listed).toHaveLength(12);
    const chosenPastLimit = facetChoices(values, ["bench-299"], { query: "bench" });
    expect(names(chosenPastLimit.listed)).toContain("bench-299");
    expect(chosenPastLimit.hidden).toBe(300 - MATCHES_SHOWN - 1);
  });
});
