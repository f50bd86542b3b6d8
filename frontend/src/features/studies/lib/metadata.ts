/** The study form's text fields ⇄ the metadata the service takes. */
import type { Finding, FindingIn, StudyLink } from "../../../api/types";

const lines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

/** One author per line. */
export const parseAuthors = (text: string): string[] => lines(text);

/** "Label | https://…" per line; a bare address is its own label. */
export function parseLinks(text: string): StudyLink[] {
  return lines(text).map((line) => {
    const bar = line.lastIndexOf("|");
    if (bar === -1) return { label: line, url: line };
    return {
      label: line.slice(0, bar).trim() || line.slice(bar + 1).trim(),
      url: line.slice(bar + 1).trim(),
    };
  });
}

export const formatLinks = (links: readonly StudyLink[]): string =>
  links.map((link) => `${link.label} | ${link.url}`).join("\n");

/** A text field's value for the API: "" clears it (null). */
export const textOrNull = (text: string): string | null => text.trim() || null;

/** A pinned finding as the PUT takes it back, to keep it beside a new one. */
export function findingInput(finding: Finding): FindingIn {
  const side = (s: Finding["numerator"]) => ({ run_id: s.run_id, series_id: s.series_id, label: s.label });
  return {
    numerator: side(finding.numerator),
    denominator: side(finding.denominator),
    context: finding.context,
    note: finding.note,
  };
}

/** The list with the item at `index` moved by `step` (−1 up, +1 down); unchanged at the ends. */
export function move<T>(items: readonly T[], index: number, step: -1 | 1): T[] {
  const target = index + step;
  if (target < 0 || target >= items.length) return [...items];
  const copy = [...items];
  [copy[index], copy[target]] = [copy[target] as T, copy[index] as T];
  return copy;
}
