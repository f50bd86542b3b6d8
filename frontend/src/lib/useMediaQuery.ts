import { useSyncExternalStore } from "react";

/** Whether a CSS media query matches, updated as it changes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", notify);
      return () => list.removeEventListener("change", notify);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** A phone's screen: narrow layouts, and figures drawn narrow. */
export const NARROW = "(max-width: 640px)";

export const useNarrow = () => useMediaQuery(NARROW);
