import { Link } from "react-router";
import { verdictClass } from "../../../lib/factor";
import { historyHref } from "../../../lib/filters";
import { directionText, formatValue } from "../../../lib/units";
import { type BoardEntry, factorText } from "../lib/board";

interface LeaderboardTableProps {
  caption: string;
  entries: readonly BoardEntry[];
  /** The base unit the entries' values are in. */
  unit: string;
  /** The baseline's label and series id, when the reader chose one. */
  baseline: { label: string; id: number } | null;
}

/** Ranked best first: value, a bar to scale, and the factor against the best or the baseline. */
export function LeaderboardTable({ caption, entries, unit, baseline }: LeaderboardTableProps) {
  const direction = entries[0]?.series.direction ?? "lower";
  const baselineId = baseline?.id ?? null;
  return (
    <div className="table-scroll">
      <table className="data-table leaderboard">
        <caption>
          {caption} <span className="muted">({directionText(direction)})</span>
        </caption>
        <thead>
          <tr>
            <th scope="col" className="num">
              #
            </th>
            <th scope="col">Implementation</th>
            <th scope="col" className="num">
              Value
            </th>
            <th scope="col" className="bar-cell">
              <span className="visually-hidden">Bar</span>
            </th>
            <th scope="col">{baseline ? `vs ${baseline.label}` : "× of best"}</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => {
            const against = baseline ? entry.vsBaseline : entry.vsBest;
            return (
              <tr key={entry.series.id} data-series={entry.series.id}>
                <td className="num">{entry.rank}</td>
                <td data-column="implementation">
                  <Link to={historyHref([entry.series.id])}>{entry.label}</Link>
                  {entry.detail ? <span className="muted board-detail"> {entry.detail}</span> : null}
                </td>
                <td className="num" data-column="value">
                  {formatValue(entry.value, unit, 4)}
                </td>
                <td className="bar-cell" aria-hidden="true">
                  <span className="board-bar" style={{ width: `${Math.max(entry.bar * 100, 0.5)}%` }} />
                </td>
                <td data-column="factor" className={against ? verdictClass(against) : undefined}>
                  {factorText(entry, baselineId)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
