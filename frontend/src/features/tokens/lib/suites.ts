/** The suites a token acts on, from what a maintainer typed: names or `prefix-*`, split on commas or spaces. */
export function parseSuites(text: string): string[] | undefined {
  const suites = text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return suites.length ? [...new Set(suites)] : undefined;
}

/** How a token's suites read in the list: every suite, or the patterns. */
export function describeSuites(suites: readonly string[] | null): string {
  return suites === null ? "every suite" : suites.join(", ");
}
