import type { ReactNode } from "react";

export interface ChartTableRow {
  key: string;
  /** The row's name (its first cell, a row header), then one cell per further column. */
  cells: readonly ReactNode[];
}

/**
 * A chart's numbers as a table, under a disclosure beside it: what a screen reader reads instead
 * of the picture, and where a keyboard reaches what the chart's marks link to.
 */
export function ChartTable({
  summary,
  caption,
  columns,
  rows,
}: {
  summary: string;
  caption: string;
  /** Column headers, the first naming the rows' headers. */
  columns: readonly string[];
  rows: readonly ChartTableRow[];
}) {
  return (
    <details className="chart-table">
      <summary>{summary}</summary>
      <div className="table-scroll">
        <table className="plain-table">
          <caption>{caption}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const [head, ...rest] = row.cells;
              return (
                <tr key={row.key}>
                  <th scope="row">{head}</th>
                  {rest.map((cell, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the row's cells, in column order
                    <td key={i}>{cell}</td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </details>
  );
}
