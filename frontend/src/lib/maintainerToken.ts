/**
 * A maintainer's API token, kept in sessionStorage only: it lasts for this browser session and
 * this tab, is never written to localStorage, a cookie or the URL, and is sent only as a bearer header.
 */
import { useSyncExternalStore } from "react";

const KEY = "benchboard.maintainer-token";
const listeners = new Set<() => void>();

function read(): string {
  try {
    return window.sessionStorage.getItem(KEY) ?? "";
  } catch {
    return "";
  }
}

function write(token: string) {
  try {
    if (token) window.sessionStorage.setItem(KEY, token);
    else window.sessionStorage.removeItem(KEY);
  } finally {
    for (const listener of listeners) listener();
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The token ("" when none) and setters; every component using it sees changes at once. */
export function useMaintainerToken(): { token: string; setToken: (t: string) => void; forget: () => void } {
  const token = useSyncExternalStore(subscribe, read, () => "");
  return { token, setToken: (t) => write(t.trim()), forget: () => write("") };
}

/** The Authorization header for a maintainer's request. */
export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
