import { describe, expect, it } from "vitest";
import { type Column, sortRows, toRecords, withTableSorts } from "./table";

interface Row {
  name: string;
  value: number | null;
}
const name: Column<Row> = { id: "name", header: "Name", text: (r) => r.name };
const value: Column<Row> = {
  id: "value",
  header: "Value",
  text: (r) => (r.value === null ? "—" : `${r.value} ms`),
  sortValue: (r) => r.value,
  raw: (r) => ({ Value: r.value, Unit: "ms" }),
};
const rows: Row[] = [
  { name: "b10", value: 3 },
  { name: "a", value: null },
  { name: "b2", value: 1 },
];

describe("sortRows", () => {
  it("sorts numbers both ways with nulls last", () => {
    expect(sortRows(rows, value, "asc").map((r) => r.name)).toEqual(["b2", "b10", "a"]);
    expect(sortRows(rows, value, "desc").map((r) => r.name)).toEqual(["b10", "b2", "a"]);
  });
  it("sorts text naturally", () => {
    expect(sortRows(rows, name, "asc").map((r) => r.name)).toEqual(["a", "b2", "b10"]);
  });
  it("keeps the order without a column", () => {
    expect(sortRows(rows, undefined, "asc")).toEqual(rows);
  });
});

describe("toRecords", () => {
  it("uses raw cells where given and the text otherwise", () => {
    expect(toRecords([name, value], rows.slice(0, 1))).toEqual([{ Name: "b10", Value: 3, Unit: "ms" }]);
  });
});

describe("withTableSorts", () => {
  // A page of two tables, as Compare's: one with both columns, one with the name alone.
  const tables = { shared: [name, value], other: [name] };
  const moved = (link: string) => withTableSorts(new URLSearchParams(link), tables)?.toString() ?? null;

  it("gives an old link's sort to every table that has its column, and drops the old keys", () => {
    expect(moved("a=1&sort=name&dir=desc")).toBe(
      "a=1&shared.sort=name&shared.dir=desc&other.sort=name&other.dir=desc",
    );
    expect(moved("sort=value&dir=asc")).toBe("shared.sort=value&shared.dir=asc");
  });
  it("moves a lone direction to every table, each keeping its own column", () => {
    expect(moved("dir=desc")).toBe("shared.dir=desc&other.dir=desc");
    expect(moved("sort=value")).toBe("shared.sort=value");
  });
  it("keeps a table's own keys over the old ones", () => {
    expect(moved("sort=name&dir=desc&other.sort=name&other.dir=asc")).toBe(
      "other.sort=name&other.dir=asc&shared.sort=name&shared.dir=desc",
    );
  });
  it("drops a sort by a column no table has, and leaves a link without old keys alone", () => {
    expect(moved("a=1&sort=gone&dir=asc")).toBe("a=1");
    expect(moved("a=1&shared.sort=value")).toBeNull();
  });
});
