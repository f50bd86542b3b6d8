/**
 * The async/sync ratio in words, and its interval as text. The interval itself comes from the
 * service (`ModePair.interval`, computed with SciPy in `benchboard.stats.intervals`).
 */
import type { ModePair } from "../../../api/types";
import { type Comparison, compareRatio, comparisonText } from "../../../lib/factor";
import type { Direction } from "../../../lib/units";

export type RatioInterval = NonNullable<ModePair["interval"]>;

export interface RatioWording extends Comparison {
  /** "async 2.09× slower", "async 2× more memory". */
  text: string;
}

/**
 * Words async/sync = `ratio` for `metric`, where `direction` is better, as a study's findings word
 * the same pair: time and rate metrics say faster/slower, the others more/fewer of the metric.
 */
export function describeRatio(
  ratio: number,
  direction: Direction,
  baseUnit: string,
  metric: string,
): RatioWording {
  const comparison = compareRatio(ratio, direction, baseUnit);
  if (comparison.verdict === "same") return { ...comparison, text: "async about the same (1.00×)" };
  return { ...comparison, text: `async ${comparisonText(comparison, metric)}` };
}

/** "1.93 – 2.26 (95%)" for a confidence interval, "0.966 – 1.08 (range)" for a range. */
export function formatInterval(interval: RatioInterval): string {
  const bounds = `${interval.low.toPrecision(3)} – ${interval.high.toPrecision(3)}`;
  return interval.level === null ? `${bounds} (range)` : `${bounds} (${Math.round(interval.level * 100)}%)`;
}
