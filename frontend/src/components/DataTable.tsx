import { useState } from "react";
import { useSearchParams } from "react-router";
import { type Column, type SortDir, sortRows } from "../lib/table";

interface SortState {
  column: string;
  dir: SortDir;
}

/** Sorting kept in the URL (`sort`, `dir`) so a sorted table can be linked. */
export function useUrlSort(
  defaultColumn: string,
  defaultDir: SortDir = "asc",
): [SortState, (column: string) => void] {
  const [params, setParams] = useSearchParams();
  const column = params.get("sort") ?? defaultColumn;
  const dir: SortDir =
    params.get("dir") === "desc" ? "desc" : params.get("dir") === "asc" ? "asc" : defaultDir;
  const toggle = (next: string) => {
    setParams(
      (prev) => {
        const copy = new URLSearchParams(prev);
        copy.set("sort", next);
        copy.set("dir", next === column && dir === "asc" ? "desc" : "asc");
        return copy;
      },
      { replace: true },
    );
  };
  return [{ column, dir }, toggle];
}

/** The rows in the order the table shows them. */
export function useSortedRows<Row>(
  rows: readonly Row[],
  columns: readonly Column<Row>[],
  sort: SortState,
): Row[] {
  return sortRows(
    rows,
    columns.find((c) => c.id === sort.column),
    sort.dir,
  );
}

interface DataTableProps<Row> {
  caption: string;
  columns: readonly Column<Row>[];
  /** Already sorted (see useSortedRows). */
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  sort: SortState;
  onSort: (column: string) => void;
  rowClass?: (row: Row) => string | undefined;
  /** Rows shown before a "show all" button; all by default. */
  initialRows?: number;
}

export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  sort,
  onSort,
  rowClass,
  initialRows = Number.POSITIVE_INFINITY,
}: DataTableProps<Row>) {
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? rows : rows.slice(0, initialRows);
  return (
    <div className="table-scroll">
      <table className="data-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => {
              const active = sort.column === c.id;
              return (
                <th
                  key={c.id}
                  scope="col"
                  className={c.align === "end" ? "num" : undefined}
                  aria-sort={active ? (sort.dir === "asc" ? "ascending" : "descending") : "none"}
                >
                  <button type="button" onClick={() => onSort(c.id)} data-column={c.id}>
                    {c.header}
                    <span aria-hidden="true">{active ? (sort.dir === "asc" ? " ▲" : " ▼") : ""}</span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => (
            <tr key={rowKey(row)} className={rowClass?.(row)}>
              {columns.map((c) => {
                const value = c.dataValue?.(row);
                const content = c.render ? c.render(row) : c.text(row);
                return (
                  <td key={c.id} className={c.align === "end" ? "num" : undefined} data-column={c.id}>
                    {value === undefined || value === null ? content : <data value={value}>{content}</data>}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {shown.length < rows.length ? (
        <button type="button" className="more" onClick={() => setShowAll(true)}>
          Show all {rows.length.toLocaleString("en-US")} rows ({shown.length} shown; exports hold all)
        </button>
      ) : null}
    </div>
  );
}
