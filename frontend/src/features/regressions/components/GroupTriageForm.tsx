import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { AlertGroupDetail, RegressionStatus } from "../../../api/types";
import { ErrorMessage } from "../../../components/Status";
import { TokenField } from "../../../components/TokenField";
import { useMaintainerToken } from "../../../lib/maintainerToken";
import { triageAlertGroup } from "../api";
import { untriagedCount } from "../lib/groups";
import { parseLinks, STATUSES } from "../lib/wording";

/** One triage for every untriaged change of a group, sent in one request with the maintainer's token. */
export function GroupTriageForm({ group }: { group: AlertGroupDetail }) {
  const { token } = useMaintainerToken();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<RegressionStatus>("acknowledged");
  const [note, setNote] = useState("");
  const [links, setLinks] = useState("");
  const ids = { status: useId(), note: useId(), links: useId() };
  const waiting = untriagedCount(group);
  const save = useMutation({
    mutationFn: () =>
      triageAlertGroup(group.id, { status, ...(note ? { note } : {}), links: parseLinks(links) }, token),
    onSuccess: (saved) => {
      queryClient.setQueryData(["regressions", "group", group.id], saved);
      void queryClient.invalidateQueries({ queryKey: ["regressions"] });
    },
  });
  return (
    <section className="triage group-triage" aria-label={`Triage the group's ${waiting} untriaged changes`}>
      <TokenField />
      <form
        className="triage-form"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <label htmlFor={ids.status}>Status for all</label>
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
        <textarea id={ids.note} name="note" rows={2} value={note} onChange={(e) => setNote(e.target.value)} />
        <label htmlFor={ids.links}>Links (one per line)</label>
        <textarea
          id={ids.links}
          name="links"
          rows={1}
          value={links}
          onChange={(e) => setLinks(e.target.value)}
        />
        <div>
          <button type="submit" disabled={save.isPending || !token || waiting === 0}>
            {save.isPending ? "Saving…" : `Triage ${waiting} untriaged`}
          </button>{" "}
          {!token ? <span className="muted">Paste a maintainer token above to triage.</span> : null}
          {save.isSuccess && !save.isPending ? (
            <span role="status" className="saved">
              Saved.
            </span>
          ) : null}
        </div>
      </form>
      {save.error ? <ErrorMessage error={save.error} /> : null}
    </section>
  );
}
