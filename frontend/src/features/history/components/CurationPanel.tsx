import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { SeriesHistory } from "../../../api/types";
import { ErrorMessage } from "../../../components/Status";
import { useMaintainerToken } from "../../../lib/maintainerToken";
import { formatDateTime } from "../../../lib/time";
import { curate, seriesCurationQuery } from "../api";

type Action = Parameters<typeof curate>[2];

/**
 * A maintainer's curation of one series' baseline: mark a run's result as an outlier (left out of
 * detection, drawn hollow) or reset the baseline at a run; each is recorded and can be undone.
 */
export function CurationPanel({ history }: { history: SeriesHistory }) {
  const seriesId = history.series.id;
  const { token } = useMaintainerToken();
  const queryClient = useQueryClient();
  const curation = useQuery(seriesCurationQuery(seriesId));
  const runs = [...history.points].reverse();
  const [runId, setRunId] = useState("");
  const chosen = runId || runs[0]?.run_id || "";
  const id = useId();
  const when = new Map(history.points.map((p) => [p.run_id, formatDateTime(p.started_at)]));
  const save = useMutation({
    mutationFn: (action: Action) => curate(seriesId, token, action),
    onSuccess: (saved) => {
      queryClient.setQueryData(["history", "curation", seriesId], saved);
      void queryClient.invalidateQueries({ queryKey: ["regressions"] });
    },
  });
  const data = curation.data;
  const busy = save.isPending || !token || !chosen;
  return (
    <section className="curation" aria-label={`Baseline curation of series ${seriesId}`}>
      <h2>Baseline curation · #{seriesId}</h2>
      {/* The page's note form holds the token field: one field, shared through sessionStorage. */}
      {!token ? <p className="muted">Paste a maintainer token in the note form above to curate.</p> : null}
      <div className="actions">
        <label htmlFor={id}>Run</label>
        <select id={id} value={chosen} onChange={(e) => setRunId(e.target.value)}>
          {runs.map((p) => (
            <option key={p.run_id} value={p.run_id}>
              {formatDateTime(p.started_at)}
            </option>
          ))}
        </select>
        <button type="button" disabled={busy} onClick={() => save.mutate({ kind: "mark", runId: chosen })}>
          Mark as outlier
        </button>
        <button type="button" disabled={busy} onClick={() => save.mutate({ kind: "reset", runId: chosen })}>
          Reset baseline here
        </button>
      </div>
      {data ? (
        <ul className="curation-marks">
          {data.outliers.map((run) => (
            <li key={run} data-outlier-run={run}>
              Outlier: {when.get(run) ?? run}{" "}
              <button
                type="button"
                disabled={save.isPending || !token}
                onClick={() => save.mutate({ kind: "restore", runId: run })}
              >
                Restore
              </button>
            </li>
          ))}
          {data.baseline_reset ? (
            <li data-testid="baseline-reset">
              Baseline reset at {when.get(data.baseline_reset) ?? data.baseline_reset}{" "}
              <button
                type="button"
                disabled={save.isPending || !token}
                onClick={() => save.mutate({ kind: "undo-reset" })}
              >
                Undo reset
              </button>
            </li>
          ) : null}
          {data.record.length ? (
            <li className="muted">
              {data.record.length} mark{data.record.length === 1 ? "" : "s"} on record, the latest by{" "}
              {data.record[0]?.removed_by ?? data.record[0]?.created_by}
            </li>
          ) : null}
        </ul>
      ) : null}
      {save.error ? <ErrorMessage error={save.error} /> : null}
    </section>
  );
}
