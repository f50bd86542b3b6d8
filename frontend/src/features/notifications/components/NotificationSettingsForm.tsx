import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { ChangeDirection, NotificationSettingsOut } from "../../../api/types";
import { ErrorMessage, Loading } from "../../../components/Status";
import { TokenField, WriteError } from "../../../components/TokenField";
import { useMaintainerToken } from "../../../lib/maintainerToken";
import { notificationsQuery, saveNotifications } from "../api";
import { draftsOf, EVENTS, newDraft, settingsBody, type TargetDraft } from "../lib/targets";

function TargetRow({
  draft,
  index,
  onChange,
  onRemove,
}: {
  draft: TargetDraft;
  index: number;
  onChange: (next: TargetDraft) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const toggle = (event: ChangeDirection, on: boolean) =>
    onChange({ ...draft, events: on ? [...draft.events, event] : draft.events.filter((e) => e !== event) });
  return (
    <li className="notification-target" data-target={draft.id ?? "new"}>
      <fieldset>
        <legend>Target {index + 1}</legend>
        {draft.id === null ? (
          <div className="notification-url">
            <label htmlFor={`${id}-url`}>Apprise URL</label>
            <input
              id={`${id}-url`}
              type="text"
              required
              autoComplete="off"
              spellCheck={false}
              placeholder="slack://T…/B…/… or mailto://user:pass@example.org"
              value={draft.url}
              onChange={(e) => onChange({ ...draft, url: e.target.value })}
            />
          </div>
        ) : (
          <p>
            <code className="masked-url">{draft.url}</code>{" "}
            <span className="muted">(secrets hidden; remove and add it again to change the URL)</span>
          </p>
        )}
        <div>
          Hears of{" "}
          {EVENTS.map((event) => (
            <label key={event} className="inline-check">
              <input
                type="checkbox"
                checked={draft.events.includes(event)}
                onChange={(e) => toggle(event, e.target.checked)}
              />{" "}
              {event}s
            </label>
          ))}
        </div>
        <div>
          <label htmlFor={`${id}-min`}>Smallest change (%)</label>{" "}
          <input
            id={`${id}-min`}
            type="number"
            min={0}
            step={0.1}
            inputMode="decimal"
            value={draft.minPercent}
            onChange={(e) => onChange({ ...draft, minPercent: e.target.value })}
          />
        </div>
        <div>
          <button type="button" onClick={onRemove}>
            Remove target {index + 1}
          </button>
        </div>
      </fieldset>
    </li>
  );
}

function TargetsForm({ suite, saved }: { suite: string; saved: NotificationSettingsOut }) {
  const { token } = useMaintainerToken();
  const queryClient = useQueryClient();
  const [drafts, setDrafts] = useState(() => draftsOf(saved));
  const save = useMutation({
    mutationFn: () => saveNotifications(suite, settingsBody(drafts), token),
    onSuccess: (answer) => {
      queryClient.setQueryData(notificationsQuery(suite, token).queryKey, answer);
      setDrafts(draftsOf(answer));
    },
  });
  return (
    <form
      className="notification-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (!save.isPending) save.mutate();
      }}
    >
      {drafts.length === 0 ? (
        <p className="muted">No targets: this suite's alert groups are not announced.</p>
      ) : null}
      <ol className="notification-targets">
        {drafts.map((draft, index) => (
          <TargetRow
            key={draft.key}
            draft={draft}
            index={index}
            onChange={(next) => setDrafts(drafts.map((d) => (d.key === draft.key ? next : d)))}
            onRemove={() => setDrafts(drafts.filter((d) => d.key !== draft.key))}
          />
        ))}
      </ol>
      <p>
        <button type="button" onClick={() => setDrafts([...drafts, newDraft()])}>
          Add a target
        </button>{" "}
        <button type="submit" aria-busy={save.isPending}>
          {save.isPending ? "Saving…" : "Save targets"}
        </button>{" "}
        {save.isSuccess && !save.isPending ? (
          <span role="status" className="saved">
            Saved.
          </span>
        ) : null}
      </p>
      <WriteError error={save.error} action="set notifications" />
    </form>
  );
}

/**
 * Where a suite's alert groups are announced (Slack, e-mail, Teams, … through Apprise URLs): one
 * message per group and target. Maintainers only; saved URLs are shown masked, as the service masks them.
 */
export function NotificationSettingsForm({ suite }: { suite: string }) {
  const { token } = useMaintainerToken();
  const settings = useQuery(notificationsQuery(suite, token));
  return (
    <section className="notifications" aria-label={`Notifications of ${suite}`}>
      <TokenField />
      {!token ? <p className="muted">Paste a maintainer token above to see and set the targets.</p> : null}
      {settings.error ? <ErrorMessage error={settings.error} /> : null}
      {token && settings.isPending ? <Loading what="the targets" /> : null}
      {settings.data ? <TargetsForm key={token} suite={suite} saved={settings.data} /> : null}
    </section>
  );
}
