import { useState } from "react";
import { buildCsv, buildJson, type ExportMeta, exportFileName } from "../lib/export";
import { type Column, toRecords } from "../lib/table";

function download(text: string, name: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  URL.revokeObjectURL(url);
}

interface ShareBarProps<Row> {
  view: string;
  columns: readonly Column<Row>[];
  /** Exactly the rows the view shows, in its order. */
  rows: readonly Row[];
  filters: ExportMeta["filters"];
}

/** Copy link, CSV and JSON export of what the view shows. */
export function ShareBar<Row>({ view, columns, rows, filters }: ShareBarProps<Row>) {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  const meta = (): ExportMeta => ({
    view,
    url: window.location.href,
    filters,
    exportedAt: new Date().toISOString(),
  });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
  };
  const exportAs = (kind: "csv" | "json") => {
    const m = meta();
    const records = toRecords(columns, rows);
    const text = kind === "csv" ? buildCsv(records, m) : buildJson(records, m);
    download(
      text,
      exportFileName(view, m.exportedAt, kind),
      kind === "csv" ? "text/csv" : "application/json",
    );
  };
  return (
    <div className="share-bar">
      <button type="button" onClick={copy}>
        Copy link
      </button>
      <button type="button" onClick={() => exportAs("csv")} disabled={rows.length === 0}>
        Export CSV
      </button>
      <button type="button" onClick={() => exportAs("json")} disabled={rows.length === 0}>
        Export JSON
      </button>
      <span role="status" aria-live="polite" className="muted">
        {copied === "copied"
          ? "Link copied"
          : copied === "failed"
            ? `Copy this link: ${window.location.href}`
            : ""}
      </span>
    </div>
  );
}
