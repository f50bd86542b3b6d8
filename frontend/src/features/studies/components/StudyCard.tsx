import { Link } from "react-router";
import type { Suite } from "../../../api/types";
import { languageColor } from "../../../lib/colors";
import { studyHref } from "../../../lib/links";
import { formatDateRange } from "../../../lib/time";

export function StudyCard({ suite }: { suite: Suite }) {
  const query = `suite=${encodeURIComponent(suite.suite)}`;
  return (
    <article className="card" aria-labelledby={`study-${suite.suite}`} data-suite={suite.suite}>
      <h2 id={`study-${suite.suite}`}>
        <Link to={studyHref(suite.suite)}>{suite.title ?? suite.suite}</Link>
      </h2>
      <code className="muted">{suite.suite}</code>
      {suite.authors.length ? <p className="authors">by {suite.authors.join(", ")}</p> : null}
      {suite.first_finding ? (
        <p className="headline" data-finding={suite.first_finding.id}>
          {suite.first_finding.text}
        </p>
      ) : null}
      {suite.description ? <p className="description">{suite.description}</p> : null}
      <dl>
        <dt>Runs</dt>
        <dd>{suite.run_count.toLocaleString("en-US")}</dd>
        <dt>Results</dt>
        <dd>
          {suite.result_count.toLocaleString("en-US")} in {suite.series_count.toLocaleString("en-US")} series
        </dd>
        <dt>Dates</dt>
        <dd>{formatDateRange(suite.first_started_at, suite.last_started_at)}</dd>
        <dt>Languages</dt>
        <dd>
          {suite.languages.map((language) => (
            <span className="chip" key={language}>
              <span className="swatch" style={{ background: languageColor(language) }} aria-hidden="true" />
              {language}
            </span>
          ))}
        </dd>
        <dt>Hardware</dt>
        <dd>
          {suite.hardware.map((name) => (
            <span className="chip" key={name}>
              {name}
            </span>
          ))}
        </dd>
      </dl>
      <div className="links">
        <Link to={studyHref(suite.suite)}>Study page</Link>
        <Link to={`/explore?${query}`}>Explore results</Link>
        <Link to={`/modes?${query}`}>Sync vs async</Link>
        <Link to={`/runs?${query}`}>Runs</Link>
      </div>
    </article>
  );
}
