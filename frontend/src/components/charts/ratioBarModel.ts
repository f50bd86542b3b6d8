/** What RatioBarChart draws: async/sync ratios as bars from 1.0 on a log axis, each with its wording. */
import type { Comparison } from "../../lib/factor";
import { wrapText } from "../../lib/wrapText";

/** One bar: log10(async/sync) from 0, its interval as log offsets, and its wording. */
export interface RatioBar {
  key: string;
  label: string;
  logRatio: number;
  error: [number, number] | null;
  wording: { text: string } & Pick<Comparison, "better">;
  ratio: number;
}

/** Line height of a wrapped axis label, px (WrappedTick). */
const LINE = 13;

/**
 * How the chart lays its bars out: the characters per line of a label, the chart's height (every
 * bar tall enough for its wrapped label plus the bold wording under it) and each label's wording.
 */
export function ratioBarLayout(
  rows: readonly RatioBar[],
  narrow: boolean,
): { labelChars: number; height: number; wordingByLabel: Map<string, string> } {
  const labelChars = narrow ? 18 : 44;
  const lines = Math.max(...rows.map((r) => wrapText(r.label, labelChars).length + 1));
  return {
    labelChars,
    height: 50 + rows.length * Math.max(40, lines * LINE + 14),
    wordingByLabel: new Map(rows.map((r) => [r.label, r.wording.text])),
  };
}
