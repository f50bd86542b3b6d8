import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { Regression, RegressionStatus, RegressionTriage } from "../../../api/types";
import { TokenField, WriteError } from "../../../components/TokenField";
import { useMaintainerToken } from "../../../lib/maintainerToken";
import { triageRegression } from "../api";
import { parseLinks, STATUSES } from "../lib/wording";

/** Status, note and links of one change, sent with the maintainer's token. */
export function TriageForm({ regression }: { regression: Regression }) {
  const { token } = useMaintainerToken();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<RegressionStatus>(regression.status);
  const [note, setNote] = useState(regression.note ?? "");
  const [links, setLinks] = useState(regression.links.join("\n"));
  const ids = { status: useId(), note: useId(), links: useId() };
  const save = useMutation({
    mutationFn: (triage: RegressionTriage) => triageRegression(regression.id, triage, token),
    onSuccess: (saved) => {
      queryClient.setQueryData(["regressions", "one", regression.id], saved);
      void queryClient.invalidateQueries({ queryKey: ["regressions"] });
    },
  });
  return (
    <section className="triage" aria-labelledby={`${ids.status}-h`}>
      <h2 id={`${ids.status}-h`}>Triage</h2>
      <TokenField />
      <form
        className="triage-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!save.isPending) save.mutate({ status, note, links: parseLinks(links) });
        }}
      >
        <label htmlFor={ids.status}>Status</label>
        <select
          id={ids.status}
          name="status"
          value={status}
          onChange={(e) => setStatus(STATUSES.find((s) => s.value === e.target.value)?.value ?? status)}
        >
          {STATUSES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.value} — {s.text}
            </option>
          ))}
        </select>
        <label htmlFor={ids.note}>Note</label>
        <textarea id={ids.note} name="note" rows={3} value={note} onChange={(e) => setNote(e.target.value)} />
        <label htmlFor={ids.links}>Links (one per line)</label>
        <textarea
          id={ids.links}
          name="links"
          rows={2}
          value={links}
          placeholder="https://github.com/org/repo/issues/1"
          onChange={(e) => setLinks(e.target.value)}
        />
        <div>
          {/* Not disabled while saving: a disabled button would drop the reader's focus. */}
          <button type="submit" disabled={!token} aria-busy={save.isPending}>
            {save.isPending ? "Saving…" : "Save triage"}
          </button>{" "}
          {!token ? <span className="muted">Paste a maintainer token above to triage.</span> : null}
          {save.isSuccess && !save.isPending ? (
            <span role="status" className="saved">
              Saved.
            </span>
          ) : null}
        </div>
      </form>
      <WriteError error={save.error} action="triage" />
    </section>
  );
}
