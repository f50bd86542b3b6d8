/** Which series of a chart are hidden: what clicking a legend entry does. */

/** Shows a hidden series, hides a shown one. */
export function toggleSeries(hidden: ReadonlySet<string>, key: string): Set<string> {
  const next = new Set(hidden);
  if (next.has(key)) next.delete(key);
  else next.add(key);
  return next;
}

/** Shows only `key`; if it is already the only one shown, shows every series again. */
export function isolateSeries(
  hidden: ReadonlySet<string>,
  keys: readonly string[],
  key: string,
): Set<string> {
  const alone = !hidden.has(key) && keys.every((k) => k === key || hidden.has(k));
  return alone ? new Set() : new Set(keys.filter((k) => k !== key));
}
