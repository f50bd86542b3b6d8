import { describe, expect, it } from "vitest";
import { type Column, sortRows, toRecords } from "./table";

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
