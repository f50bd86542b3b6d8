import { useId, useState } from "react";
import { useMaintainerToken } from "../lib/maintainerToken";

/** Where a maintainer pastes a token once; it stays for this browser session only. */
export function TokenField() {
  const { token, setToken, forget } = useMaintainerToken();
  const [draft, setDraft] = useState("");
  const id = useId();
  if (token)
    return (
      <p className="token-field">
        <span>
          Maintainer token set (ends <code>…{token.slice(-4)}</code>), kept for this browser session only.
        </span>{" "}
        <button type="button" onClick={forget}>
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
