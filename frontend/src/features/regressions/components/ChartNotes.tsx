import { Link } from "react-router";
import { formatDateTime } from "../../../lib/time";
import type { ChartNote } from "../lib/markers";
import { StatusBadge } from "./StatusBadge";

const KIND_TEXT: Record<ChartNote["kind"], string> = {
  regression: "Regression",
  improvement: "Improvement",
  annotation: "Note",
};

/** The chart's markers as a list readers can read without hovering. */
export function ChartNotes({ notes }: { notes: readonly ChartNote[] }) {
  if (!notes.length) return null;
  return (
    <section className="chart-notes" aria-label="Changes and notes on the chart">
      <h2>Changes and notes</h2>
      <ul>
        {notes.map((n) => (
          <li key={n.key} className={`chart-note chart-note-${n.kind}`} data-key={n.key}>
            <span className={`marker-dot marker-${n.kind}`} aria-hidden="true" />
            <time dateTime={n.time}>{formatDateTime(n.time)}</time> <strong>{KIND_TEXT[n.kind]}</strong>
            {n.status ? <StatusBadge status={n.status} /> : null}{" "}
            <span className="chart-note-text">{n.label}</span>
            {n.by ? <span className="muted"> — {n.by}</span> : null}
            {n.regressionId !== undefined ? (
              <>
                {" "}
                <Link to={`/regressions/${n.regressionId}`}>triage</Link>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
