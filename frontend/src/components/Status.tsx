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

/**
 * Some series the page shows still wait for change detection (a worker checks them in the
 * background after an upload); the page refreshes itself until they are checked.
 */
export function DetectionPending({
  series,
  scope,
  effect,
}: {
  series: number;
  scope: string;
  effect: string;
}) {
  if (series === 0) return null;
  return (
    <p className="status status-pending" role="status" aria-live="polite" data-testid="detection-pending">
      Change detection pending for {series.toLocaleString("en")} {scope}: {effect}
    </p>
  );
}

/** While some series wait for change detection, ask again every few seconds. */
export const POLL_WHILE_PENDING_MS = 2000;

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
