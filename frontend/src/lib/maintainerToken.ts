/**
 * A maintainer's API token, kept in sessionStorage only: it lasts for this browser session and
 * this tab, is never written to localStorage, a cookie or the URL, and is sent only as a bearer header.
 */
import { useSyncExternalStore } from "react";
import { ApiError } from "../api/client";

const KEY = "benchboard.maintainer-token";
const listeners = new Set<() => void>();
// Where the token lives when the browser refuses session storage (disabled, or full): this page's
// memory, lost on reload, so writing still works in such a browser instead of throwing.
let memory = "";

/** The token now ("" when none), outside React; components use useMaintainerToken. */
export function readMaintainerToken(): string {
  try {
    return window.sessionStorage.getItem(KEY) ?? memory;
  } catch {
    return memory;
  }
}

/** Keeps the token ("" forgets it) and tells every component using it. */
export function writeMaintainerToken(token: string) {
  memory = "";
  try {
    if (token) window.sessionStorage.setItem(KEY, token);
    else window.sessionStorage.removeItem(KEY);
  } catch {
    memory = token;
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The token ("" when none) and setters; every component using it sees changes at once. */
export function useMaintainerToken(): { token: string; setToken: (t: string) => void; forget: () => void } {
  const token = useSyncExternalStore(subscribe, readMaintainerToken, () => "");
  return { token, setToken: (t) => writeMaintainerToken(t.trim()), forget: () => writeMaintainerToken("") };
}

/**
 * Forgets the token when the service did not accept it (401: unknown, revoked or expired), so the
 * field asks for a new one. A 403 keeps it: the token is valid, only too weak for that write.
 */
export function forgetRefusedToken(error: unknown) {
  if (error instanceof ApiError && error.status === 401) writeMaintainerToken("");
}

/** The Authorization header for a maintainer's request. */
export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
