import type { RunDetail } from "../../../api/types";
import { formatDateTime } from "../../../lib/time";

function Entries({ map }: { map: Record<string, unknown> | null | undefined }) {
  const entries = Object.entries(map ?? {}).filter(([, v]) => v !== null && v !== undefined && v !== "");
  if (entries.length === 0) return <p className="muted">none</p>;
  return (
    <dl>
      {entries.map(([key, value]) => (
        <div key={key} style={{ display: "contents" }}>
          <dt>{key}</dt>
          <dd>{typeof value === "object" ? JSON.stringify(value) : String(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A run's hardware, environment, git, source and tags. */
export function RunMeta({ run }: { run: RunDetail }) {
  return (
    <div className="meta-grid">
      <section aria-labelledby="meta-run">
        <h2 id="meta-run">Run</h2>
        <dl>
          <dt>Suite</dt>
          <dd>{run.suite}</dd>
          <dt>Started</dt>
          <dd>{formatDateTime(run.started_at)}</dd>
          <dt>Uploaded</dt>
          <dd>{formatDateTime(run.created_at)}</dd>
          <dt>Results</dt>
          <dd>{run.result_count}</dd>
          <dt>Source</dt>
          <dd>
            {run.source_url ? (
              <a href={run.source_url} rel="noreferrer noopener" target="_blank">
                {run.source_url}
              </a>
            ) : (
              "—"
            )}
          </dd>
          <dt>Id</dt>
          <dd>
            <code>{run.id}</code>
          </dd>
        </dl>
      </section>
      <section aria-labelledby="meta-hardware">
        <h2 id="meta-hardware">Hardware: {run.hardware.name}</h2>
        <Entries map={run.hardware.info} />
      </section>
      <section aria-labelledby="meta-env">
        <h2 id="meta-env">Environment</h2>
        <Entries map={run.environment} />
      </section>
      <section aria-labelledby="meta-git">
        <h2 id="meta-git">Git</h2>
        <Entries map={run.git} />
      </section>
      <section aria-labelledby="meta-tags">
        <h2 id="meta-tags">Tags</h2>
        <Entries map={run.tags} />
      </section>
    </div>
  );
}
