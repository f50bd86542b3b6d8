import type { Study } from "../../../api/types";
import { formatDateRange } from "../../../lib/time";
import { studyDating } from "../lib/findings";
import { CiteButton } from "./CiteButton";

/** Title, authors, the estimated-date badge with its basis, the description and the sources. */
export function StudyHeader({ study }: { study: Study }) {
  const dating = studyDating(study.runs);
  const dates = study.runs.map((run) => run.started_at).sort();
  return (
    <header className="study-head">
      <h1>{study.title ?? study.suite}</h1>
      <p className="study-byline">
        {study.authors.length ? <span>by {study.authors.join(", ")} · </span> : null}
        <span>{formatDateRange(dates[0], dates.at(-1))}</span>{" "}
        {dating.badge ? <span className="badge badge-estimated">{dating.badge}</span> : null}{" "}
        <code className="muted">{study.suite}</code>
      </p>
      {dating.bases.length ? (
        <ul className="date-basis" aria-label="Why the date is estimated">
          {dating.bases.map((basis) => (
            <li key={basis}>{basis}</li>
          ))}
        </ul>
      ) : null}
      <div className="actions">
        <CiteButton suite={study.suite} />
      </div>
      {study.description ? <p className="study-description">{study.description}</p> : null}
      {study.links.length ? (
        <ul className="study-links" aria-label="Sources">
          {study.links.map((link) => (
            <li key={link.url}>
              <a href={link.url} rel="noreferrer noopener">
                {link.label}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </header>
  );
}
