import { useEffect, useId, useRef, useState } from "react";
import { ApiError } from "../api/client";
import { useMaintainerToken } from "../lib/maintainerToken";
import { ErrorMessage } from "./Status";

/** Whether the focus went with an element that left the page, or one that can no longer take it. */
function focusLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || (active as HTMLButtonElement).disabled === true;
}

/** Where a maintainer pastes a token once; it stays for this browser session only. */
export function TokenField() {
  const { token, setToken, forget } = useMaintainerToken();
  const [draft, setDraft] = useState("");
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const forgetButton = useRef<HTMLButtonElement>(null);
  const shown = useRef(token);
  // The field swaps its form for a line (and back) as the token is set or forgotten, here or by a
  // refusal: the reader's focus moves to what took its place rather than falling to the page.
  useEffect(() => {
    if (shown.current === token) return;
    shown.current = token;
    if (focusLost()) (token ? forgetButton : input).current?.focus();
  }, [token]);
  if (token)
    return (
      <p className="token-field">
        <span>
          Maintainer token set (ends <code>…{token.slice(-4)}</code>), kept for this browser session only.
        </span>{" "}
        <button type="button" ref={forgetButton} onClick={forget}>
          Forget token
        </button>
      </p>
    );
  return (
    <form
      className="token-field"
      onSubmit={(e) => {
        e.preventDefault();
        setToken(draft);
        setDraft("");
      }}
    >
      <label htmlFor={id}>Maintainer token</label>
      <input
        id={id}
        ref={input}
        type="password"
        autoComplete="off"
        spellCheck={false}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        placeholder="paste a token with the maintain scope"
      />
      <button type="submit" disabled={!draft.trim()}>
        Use token
      </button>
      <span className="muted">Kept in this tab's session storage only, sent only to this service.</span>
    </form>
  );
}

/** What to do about a refused token, under the service's own message. */
function tokenHint(error: unknown, action: string): string | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 401)
    return "The service did not accept the token (unknown, revoked or expired), so it was forgotten: paste a valid one.";
  if (error.status === 403) return `This token may not ${action}: it needs the maintain or admin scope.`;
  return null;
}

/**
 * A failed write as the service states it; for a refused token (401, 403), what to do about it.
 * `action` completes "This token may not …".
 */
export function WriteError({ error, action }: { error: unknown; action: string }) {
  if (!error) return null;
  const hint = tokenHint(error, action);
  return (
    <>
      <ErrorMessage error={error} />
      {hint ? <p className="muted token-hint">{hint}</p> : null}
    </>
  );
}
