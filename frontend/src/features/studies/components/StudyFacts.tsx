import { Link } from "react-router";
import type { Study } from "../../../api/types";
import { boardHref } from "../../../lib/board";
import { runHref, uploadHref } from "../../../lib/links";
import { formatDate } from "../../../lib/time";

/** Each machine with everything its uploads say about it. */
export function HardwareList({ hardware }: { hardware: Study["hardware"] }) {
  return (
    <div className="machines">
      {hardware.map((machine) => (
        <section key={machine.name} className="machine" aria-label={machine.name}>
          <h3>{machine.name}</h3>
          <dl>
            {Object.entries(machine.info).map(([key, value]) => (
              <div key={key}>
                <dt>{key}</dt>
                <dd>{String(value)}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </div>
  );
}

/** The study's newest runs: date (and whether it is estimated), machine, results, raw upload. */
export function StudyRuns({ study }: { study: Study }) {
  return (
    <>
      <div className="table-scroll">
        <table className="data-table study-runs">
          <caption>Runs of {study.title ?? study.suite}, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Date</th>
              <th scope="col">Machine</th>
              <th scope="col" className="num">
                Results
              </th>
              <th scope="col">Upload</th>
            </tr>
          </thead>
          <tbody>
            {study.runs.map((run) => (
              <tr key={run.id}>
                <td>
                  <Link to={runHref(run.id)}>{run.name ?? run.id.slice(0, 8)}</Link>
                </td>
                <td>
                  {formatDate(run.started_at)}
                  {run.tags.date_estimated === "true" ? (
                    <span className="badge badge-estimated" title={run.tags.date_basis}>
                      estimated
                    </span>
                  ) : null}
                </td>
                <td>{run.hardware_name}</td>
                <td className="num">{run.result_count.toLocaleString("en-US")}</td>
                <td>
                  <a href={uploadHref(run.id)}>JSON</a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        <Link to={`/runs?suite=${encodeURIComponent(study.suite)}`}>Every run of this study</Link>
      </p>
    </>
  );
}

/** Every benchmark and metric of the study, each opening its leaderboard. */
export function WorkloadList({ study }: { study: Study }) {
  return (
    <ul className="workloads">
      {study.workloads.map((w) => (
        <li key={`${w.benchmark}/${w.metric}`}>
          <Link to={boardHref({ suite: study.suite, benchmark: w.benchmark, metric: w.metric })}>
            {w.benchmark} · {w.metric}
          </Link>{" "}
          <span className="muted">({w.series_count} series)</span>
        </li>
      ))}
    </ul>
  );
}
