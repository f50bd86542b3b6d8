import type { ReactNode } from "react";
import { ApiError } from "../api/client";

export function Loading({ what }: { what: string }) {
  return (
    <p className="status" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="status status-empty">{children}</p>;
}

/** An API error as the service states it, with every offending field. */
export function ErrorMessage({ error }: { error: unknown }) {
  const apiError = error instanceof ApiError ? error : null;
  const message = apiError?.message ?? (error instanceof Error ? error.message : String(error));
  return (
    <div className="status status-error" role="alert">
      <p>
        <strong>{apiError && apiError.status > 0 ? `Error ${apiError.status}` : "Error"}</strong>
        {apiError ? <code> {apiError.code}</code> : null}: {message}
      </p>
      {apiError?.fields.length ? (
        <ul>
          {apiError.fields.map((f) => (
            <li key={`${f.path}:${f.message}`}>
              <code>{f.path}</code>: {f.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

interface QueryLike<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
}

/** Renders loading and error states of a query, then its data. */
export function QueryView<T>({
  query,
  what,
  children,
}: {
  query: QueryLike<T>;
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (query.error) return <ErrorMessage error={query.error} />;
  if (query.isPending || query.data === undefined) return <Loading what={what} />;
  return <>{children(query.data)}</>;
}
