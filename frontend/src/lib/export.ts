import type { Cell } from "./table";

/** What produced an export: the view, its link and its filters. */
export interface ExportMeta {
  view: string;
  url: string;
  filters: Record<string, string | string[]>;
  exportedAt: string;
}

function csvCell(value: Cell): string {
  if (value === null) return "";
  const text = String(value);
  return /[",\n\r#]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}

function describeFilters(filters: ExportMeta["filters"]): string {
  const parts = Object.entries(filters)
    .filter(([, v]) => (Array.isArray(v) ? v.length > 0 : v !== ""))
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join("|") : v}`);
  return parts.length ? parts.join("; ") : "none";
}

/**
 * CSV with the context in leading `#` comment lines (read with e.g. pandas `comment="#"`),
 * then a header row of every column that appears in any record.
 */
export function buildCsv(records: readonly Record<string, Cell>[], meta: ExportMeta): string {
  const headers = [...new Set(records.flatMap((r) => Object.keys(r)))];
  const lines = [
    `# Benchboard ${meta.view} export`,
    `# url: ${meta.url}`,
    `# filters: ${describeFilters(meta.filters)}`,
    `# exported_at: ${meta.exportedAt}`,
    headers.map(csvCell).join(","),
    ...records.map((r) => headers.map((h) => csvCell(r[h] ?? null)).join(",")),
  ];
  return `${lines.join("\r\n")}\r\n`;
}

export function buildJson(records: readonly Record<string, Cell>[], meta: ExportMeta): string {
  return `${JSON.stringify({ ...meta, rows: records }, null, 2)}\n`;
}

/** A file name from the view and the date: "benchboard-explore-2025-03-20.csv". */
export function exportFileName(view: string, exportedAt: string, extension: "csv" | "json"): string {
  return `benchboard-${view}-${exportedAt.slice(0, 10)}.${extension}`;
}
