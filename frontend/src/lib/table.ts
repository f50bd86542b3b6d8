import type { ReactNode } from "react";

export type Cell = string | number | boolean | null;
export type SortDir = "asc" | "desc";

/** One table column: what the cell shows, how it sorts and what it exports. */
export interface Column<Row> {
  id: string;
  header: string;
  /** The text the cell shows (and the CSV cell unless `raw` is given). */
  text: (row: Row) => string;
  /** Sort key; defaults to the text. Nulls sort last. */
  sortValue?: (row: Row) => number | string | null;
  /** Export cells, e.g. the unscaled number and its unit; defaults to { [header]: text }. */
  raw?: (row: Row) => Record<string, Cell>;
  /** Machine-readable value put in the cell's <data value>, for numeric cells. */
  dataValue?: (row: Row) => number | null;
  /** Custom cell content (links, swatches); the text is used otherwise. */
  render?: (row: Row) => ReactNode;
  align?: "start" | "end";
  /**
   * Kept in view while the table scrolls sideways (wide screens): the name of a row and its value
   * columns. Pinned columns come first and need a `width`.
   */
  pin?: boolean;
  /** Width in px; required for pinned columns (their sticky offsets add up these widths). */
  width?: number;
}

/** The URL keys of a table's sort: `sort` and `dir`, or `<table>.sort` and `<table>.dir`. */
export const sortKeys = (table?: string) =>
  table ? { sort: `${table}.sort`, dir: `${table}.dir` } : { sort: "sort", dir: "dir" };

/**
 * A link from before a page's tables each kept their sort under their own keys: its one `sort`
 * and `dir` applied to every table, so each named table that has that column takes them (a table
 * without it keeps its own order, which the old link could not sort). Keys the link already has
 * for a table stand. Null when the link has no old keys.
 */
export function withTableSorts(
  params: URLSearchParams,
  tables: Readonly<Record<string, readonly { id: string }[]>>,
): URLSearchParams | null {
  const old = sortKeys();
  const column = params.get(old.sort);
  const dir = params.get(old.dir);
  if (column === null && dir === null) return null;
  const next = new URLSearchParams(params);
  next.delete(old.sort);
  next.delete(old.dir);
  for (const [table, columns] of Object.entries(tables)) {
    const keys = sortKeys(table);
    if (next.has(keys.sort) || next.has(keys.dir)) continue;
    if (column !== null && !columns.some((c) => c.id === column)) continue;
    if (column !== null) next.set(keys.sort, column);
    if (dir !== null) next.set(keys.dir, dir);
  }
  return next;
}

/**
 * Text order with numbers by value ("b2" before "b10"). One collator: `localeCompare` with options
 * builds one per call, which took 120 ms to sort a 3,000-row table.
 */
export const compareText = new Intl.Collator("en", { numeric: true }).compare;

function compare(a: number | string | null, b: number | string | null): number {
  if (a === null) return b === null ? 0 : 1;
  if (b === null) return -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return compareText(String(a), String(b));
}

/** A sorted copy; nulls stay last in both directions; ties keep their order. */
export function sortRows<Row>(rows: readonly Row[], column: Column<Row> | undefined, dir: SortDir): Row[] {
  if (!column) return [...rows];
  const key = column.sortValue ?? column.text;
  const keyed = rows.map((row, index) => ({ row, index, key: key(row) }));
  keyed.sort((x, y) => {
    if (x.key === null || y.key === null) return compare(x.key, y.key) || x.index - y.index;
    const order = compare(x.key, y.key);
    return (dir === "asc" ? order : -order) || x.index - y.index;
  });
  return keyed.map((k) => k.row);
}

/** The rows as flat records with the columns' export cells, in table order. */
export function toRecords<Row>(
  columns: readonly Column<Row>[],
  rows: readonly Row[],
): Record<string, Cell>[] {
  return rows.map((row) => {
    const record: Record<string, Cell> = {};
    for (const column of columns)
      Object.assign(record, column.raw ? column.raw(row) : { [column.header]: column.text(row) });
    return record;
  });
}
