import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { ApiToken, TokenScope } from "../../../api/types";
import { ErrorMessage, QueryView } from "../../../components/Status";
import { TokenField } from "../../../components/TokenField";
import { useMaintainerToken } from "../../../lib/maintainerToken";
import { formatDateTime } from "../../../lib/time";
import { createToken, revokeToken, tokensQuery } from "../api";
import { describeSuites, parseSuites } from "../lib/suites";

const SCOPES: readonly TokenScope[] = ["upload", "read", "maintain"];

/** Make, copy and revoke the tokens of a maintainer's suites (an admin's: every token). */
export function TokenManager() {
  const { token } = useMaintainerToken();
  const tokens = useQuery(tokensQuery(token));
  return (
    <>
      <TokenField />
      {token ? (
        <>
          <NewTokenForm />
          <QueryView query={tokens} what="tokens">
            {(list) => <TokenTable tokens={list.items} />}
          </QueryView>
        </>
      ) : null}
    </>
  );
}

function NewTokenForm() {
  const { token } = useMaintainerToken();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [scope, setScope] = useState<TokenScope>("upload");
  const [suites, setSuites] = useState("");
  const [copied, setCopied] = useState(false);
  const ids = { name: useId(), scope: useId(), suites: useId(), secret: useId() };
  const make = useMutation({
    mutationFn: () => createToken({ name: name.trim(), scope, suites: parseSuites(suites) }, token),
    onSuccess: () => {
      setName("");
      setCopied(false);
      void queryClient.invalidateQueries({ queryKey: ["tokens"] });
    },
  });
  const secret = make.data?.token;
  return (
    <section className="token-new" aria-label="New token">
      <h2>New token</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          make.mutate();
        }}
      >
        <label htmlFor={ids.name}>Name</label>
        <input
          id={ids.name}
          required
          maxLength={200}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <label htmlFor={ids.scope}>Scope</label>
        <select id={ids.scope} value={scope} onChange={(e) => setScope(e.target.value as TokenScope)}>
          {SCOPES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <label htmlFor={ids.suites}>Suites</label>
        <input
          id={ids.suites}
          value={suites}
          placeholder="team-api, team-* (empty: every suite, admins only)"
          onChange={(e) => setSuites(e.target.value)}
        />
        <div>
          <button type="submit" disabled={make.isPending || !name.trim()}>
            {make.isPending ? "Making…" : "Make token"}
          </button>
        </div>
      </form>
      {make.error ? <ErrorMessage error={make.error} /> : null}
      {secret ? (
        <div className="token-secret" role="status">
          <label htmlFor={ids.secret}>
            Token <strong>{make.data?.name}</strong>: copy it now, it is not shown again
          </label>
          <input id={ids.secret} readOnly value={secret} onFocus={(e) => e.target.select()} />
          <button
            type="button"
            onClick={() => {
              void navigator.clipboard.writeText(secret).then(() => setCopied(true));
            }}
          >
            {copied ? "Copied" : "Copy"}
          </button>
        </div>
      ) : null}
    </section>
  );
}

function TokenTable({ tokens }: { tokens: readonly ApiToken[] }) {
  const { token } = useMaintainerToken();
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: (id: number) => revokeToken(id, token),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["tokens"] }),
  });
  return (
    <section aria-label="Tokens">
      <h2>Tokens</h2>
      {revoke.error ? <ErrorMessage error={revoke.error} /> : null}
      <div className="table-scroll">
        <table className="token-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Scope</th>
              <th scope="col">Suites</th>
              <th scope="col">Last used</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => (
              <tr key={t.id}>
                <td>{t.name}</td>
                <td>{t.scope}</td>
                <td>{describeSuites(t.suites)}</td>
                <td>{t.last_used_at ? formatDateTime(t.last_used_at) : "never"}</td>
                <td>
                  {t.revoked_at ? (
                    `revoked ${formatDateTime(t.revoked_at)}`
                  ) : (
                    <button
                      type="button"
                      disabled={revoke.isPending}
                      aria-label={`Revoke ${t.name}`}
                      onClick={() => {
                        if (window.confirm(`Revoke ${t.name}? Its next request is refused.`))
                          revoke.mutate(t.id);
                      }}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
