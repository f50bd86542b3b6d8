import { Link } from "react-router";
import type { Finding } from "../../../api/types";
import { EmbedButton } from "../../../components/EmbedButton";
import { findingChartPath } from "../../../lib/embed";
import { historyHref } from "../../../lib/filters";
import { runHref, studyHref } from "../../../lib/links";
import { NARROW } from "../../../lib/useMediaQuery";
import { differenceText, factorInterval, findingBoardHref, intervalText, sideText } from "../lib/findings";

const NARROW_FIGURE = "width=400&height=300";

function FindingItem({ finding }: { finding: Finding }) {
  const interval = factorInterval(finding);
  const runs = [finding.numerator, finding.denominator].filter(
    (side, i, sides) => sides.findIndex((s) => s.run_id === side.run_id) === i,
  );
  return (
    <li className="finding" data-finding={finding.id}>
      <p className={`finding-text verdict-${finding.verdict}`}>{finding.text}</p>
      {interval ? <p className="finding-interval">{intervalText(interval)}</p> : null}
      <p className="finding-values">
        {sideText(finding.numerator)} · {sideText(finding.denominator)} · {differenceText(finding)}{" "}
        <span className="muted">({finding.numerator.metric})</span>
      </p>
      {finding.note ? <p className="finding-note">{finding.note}</p> : null}
      <figure className="published-figure">
        {/* A phone gets a figure drawn at its width: the 800 px one scaled down has 4 px text. */}
        <picture>
          <source
            media={NARROW}
            srcSet={`${findingChartPath(finding.id)}?${NARROW_FIGURE}`}
            width={400}
            height={300}
          />
          <img
            src={findingChartPath(finding.id)}
            alt={finding.text}
            width={800}
            height={400}
            loading="lazy"
          />
        </picture>
        <EmbedButton
          what={{ image: findingChartPath(finding.id), alt: finding.text, link: studyHref(finding.suite) }}
        />
      </figure>
      <p className="finding-links">
        <Link to={findingBoardHref(finding)}>Leaderboard</Link>
        <Link to={historyHref([finding.numerator.series_id, finding.denominator.series_id])}>History</Link>
        {runs.map((side) => (
          <Link key={side.run_id} to={runHref(side.run_id)}>
            Run {side.run_name ?? side.run_id.slice(0, 8)}
          </Link>
        ))}
      </p>
    </li>
  );
}

/** The study's pinned findings, each with its interval, its two values and where they come from. */
export function FindingList({ findings }: { findings: readonly Finding[] }) {
  if (findings.length === 0)
    return <p className="muted">No findings are pinned yet. A maintainer can pin them below.</p>;
  return (
    <ol className="findings">
      {findings.map((finding) => (
        <FindingItem key={finding.id} finding={finding} />
      ))}
    </ol>
  );
}
