import {
  type ColumnDef,
  columnPinningFeature,
  columnSizingFeature,
  type RowData,
  type Column as TableColumn,
  tableFeatures,
  useTable,
} from "@tanstack/react-table";
import { useWindowVirtualizer } from "@tanstack/react-virtual";
import {
  type CSSProperties,
  type ReactNode,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { useSearchParams } from "react-router";
import { type Column, type SortDir, sortKeys, sortRows, withTableSorts } from "../lib/table";
import { useNarrow } from "../lib/useMediaQuery";

export interface SortState {
  column: string;
  dir: SortDir;
}

/**
 * Sorting kept in the URL so a sorted table can be linked. A page with several tables names each
 * (`table`), so each keeps its own sort and sorting one leaves the others as they were.
 */
export function useUrlSort(
  defaultColumn: string,
  defaultDir: SortDir = "asc",
  table?: string,
): [SortState, (column: string) => void] {
  const [params, setParams] = useSearchParams();
  const keys = sortKeys(table);
  const column = params.get(keys.sort) ?? defaultColumn;
  const asked = params.get(keys.dir);
  const dir: SortDir = asked === "desc" ? "desc" : asked === "asc" ? "asc" : defaultDir;
  const toggle = (next: string) => {
    setParams(
      (prev) => {
        const copy = new URLSearchParams(prev);
        copy.set(keys.sort, next);
        copy.set(keys.dir, next === column && dir === "asc" ? "desc" : "asc");
        return copy;
      },
      { replace: true },
    );
  };
  return [{ column, dir }, toggle];
}

/**
 * On a page whose tables each keep their sort under their own keys (`useUrlSort`'s `table`), an
 * older link's one `sort`/`dir` is moved to those keys as the page opens (`withTableSorts`).
 */
export function useOldSortLinks(tables: Parameters<typeof withTableSorts>[1]) {
  const [params, setParams] = useSearchParams();
  const moved = withTableSorts(params, tables);
  useEffect(() => {
    if (moved) setParams(moved, { replace: true });
  }, [moved, setParams]);
}

/** The rows in the order the table shows them. */
export function useSortedRows<Row>(
  rows: readonly Row[],
  columns: readonly Column<Row>[],
  sort: SortState,
): Row[] {
  return useMemo(
    () =>
      sortRows(
        rows,
        columns.find((c) => c.id === sort.column),
        sort.dir,
      ),
    [rows, columns, sort.column, sort.dir],
  );
}

/**
 * Up to this many rows the table is in the page whole (find-in-page and printing see every row);
 * longer tables draw only the rows near the viewport.
 */
export const VIRTUAL_ABOVE = 200;
/** The fixed height of a virtual row (styles.css, `.data-table.virtual`): one line, never wrapped. */
const ROW_HEIGHT = 32;

// TanStack Table lays out the columns: sizes and the sticky offsets of pinned ones. Sorting stays
// ours (sortRows, in the URL), so the CSV export and the table share one order.
const features = tableFeatures({ columnSizingFeature, columnPinningFeature });
type Features = typeof features;
type LayoutColumn<Row extends RowData> = TableColumn<Features, Row, unknown>;

function pinnedStyle<Row extends RowData>(column: LayoutColumn<Row>): CSSProperties | undefined {
  if (column.getIsPinned() !== "start") return undefined;
  const width = column.getSize();
  return { insetInlineStart: column.getStart("start"), width, minWidth: width, maxWidth: width };
}

/** Pads the body above and below the drawn rows so the scroll height is that of every row. */
function Spacer({ height, span }: { height: number; span: number }) {
  if (height <= 0) return null;
  return (
    <tr className="spacer">
      <td colSpan={span} style={{ height }} aria-hidden="true" />
    </tr>
  );
}

/** The window-scrolled virtual rows of a long body; all rows for a short one. */
function useVisibleRows(count: number, body: React.RefObject<HTMLTableSectionElement | null>) {
  const [scrollMargin, setScrollMargin] = useState(0);
  const narrow = useNarrow();
  const virtual = count > VIRTUAL_ABOVE;
  // Where the body starts on the page: it moves when the rows (and the charts above) change, or
  // the layout does. Charts above keep their height as they draw, so scrolling does not move it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: count and narrow are the triggers
  useLayoutEffect(() => {
    if (!virtual) return;
    setScrollMargin((body.current?.getBoundingClientRect().top ?? 0) + window.scrollY);
  }, [virtual, count, narrow, body]);
  const virtualizer = useWindowVirtualizer({
    // Off for a whole table: an enabled one reads window.scrollY as it mounts, which lays out the
    // page just changed (the rows, the charts above) inside the commit instead of at the next frame.
    enabled: virtual,
    count: virtual ? count : 0,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    scrollMargin,
  });
  if (!virtual) return { virtual, indexes: Array.from({ length: count }, (_, i) => i), before: 0, after: 0 };
  const items = virtualizer.getVirtualItems();
  const first = items[0];
  const last = items.at(-1);
  return {
    virtual,
    indexes: items.map((item) => item.index),
    before: first ? first.start - scrollMargin : 0,
    after: last ? virtualizer.getTotalSize() - (last.end - scrollMargin) : 0,
  };
}

interface DataTableProps<Row extends RowData> {
  caption: string;
  columns: readonly Column<Row>[];
  /** Already sorted (see useSortedRows). */
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  sort: SortState;
  onSort: (column: string) => void;
  rowClass?: (row: Row) => string | undefined;
}

function cellContent<Row>(column: Column<Row>, row: Row): ReactNode {
  const value = column.dataValue?.(row);
  const content = column.render ? column.render(row) : column.text(row);
  return value === undefined || value === null ? content : <data value={value}>{content}</data>;
}

/**
 * A sortable table whose pinned columns (the row's name, its value) stay in view while the rest
 * scrolls sideways, and whose long bodies draw only the rows near the viewport.
 */
export function DataTable<Row extends RowData>({
  caption,
  columns,
  rows,
  rowKey,
  sort,
  onSort,
  rowClass,
}: DataTableProps<Row>) {
  const narrow = useNarrow();
  const body = useRef<HTMLTableSectionElement>(null);
  const byId = useMemo(() => new Map(columns.map((c) => [c.id, c])), [columns]);
  const columnDefs = useMemo(
    () => columns.map((c): ColumnDef<Features, Row> => ({ id: c.id, header: c.header, size: c.width ?? 0 })),
    [columns],
  );
  // On a phone the pinned columns would cover the screen: there they scroll with the rest.
  const pinned = useMemo(
    () => ({ start: narrow ? [] : columns.filter((c) => c.pin).map((c) => c.id), end: [] }),
    [columns, narrow],
  );
  const table = useTable({
    features,
    columns: columnDefs,
    data: rows as Row[],
    state: { columnPinning: pinned },
  });
  const leaves = [...table.getStartLeafColumns(), ...table.getCenterLeafColumns()];
  const lastPinned = leaves.filter((c) => c.getIsPinned() === "start").at(-1)?.id;
  const visible = useVisibleRows(rows.length, body);
  const classOf = (c: Column<Row>, column: LayoutColumn<Row>) =>
    [
      c.align === "end" ? "num" : "",
      column.getIsPinned() ? "pinned" : "",
      column.id === lastPinned ? "pinned-last" : "",
    ]
      .filter(Boolean)
      .join(" ") || undefined;
  return (
    <div className="table-scroll">
      <table
        className={visible.virtual ? "data-table virtual" : "data-table"}
        aria-rowcount={rows.length + 1}
      >
        <caption>{caption}</caption>
        <thead>
          <tr aria-rowindex={1}>
            {leaves.map((column) => {
              const c = byId.get(column.id) as Column<Row>;
              const active = sort.column === c.id;
              return (
                <th
                  key={c.id}
                  scope="col"
                  className={classOf(c, column)}
                  style={pinnedStyle(column)}
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
        <tbody ref={body}>
          <Spacer height={visible.before} span={leaves.length} />
          {visible.indexes.map((index) => {
            const row = rows[index] as Row;
            return (
              <tr key={rowKey(row)} className={rowClass?.(row)} aria-rowindex={index + 2}>
                {leaves.map((column) => {
                  const c = byId.get(column.id) as Column<Row>;
                  const layout = column;
                  return (
                    <td
                      key={c.id}
                      className={classOf(c, layout)}
                      style={pinnedStyle(layout)}
                      data-column={c.id}
                      title={visible.virtual && column.getIsPinned() ? c.text(row) : undefined}
                    >
                      {cellContent(c, row)}
                    </td>
                  );
                })}
              </tr>
            );
          })}
          <Spacer height={visible.after} span={leaves.length} />
        </tbody>
      </table>
    </div>
  );
}
