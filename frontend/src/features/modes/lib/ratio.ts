/**
 * The async/sync ratio in words, and its interval as text. The interval itself comes from the
 * service (`ModePair.interval`, computed with SciPy in `benchboard.stats.intervals`).
 */
import type { ModePair } from "../../../api/types";
import { compareRatio, type FactorVerdict, formatFactor } from "../../../lib/factor";
import type { Direction } from "../../../lib/units";

export type RatioInterval = NonNullable<ModePair["interval"]>;

export interface RatioWording {
  /** "async 2.09× slower". */
  text: string;
  verdict: FactorVerdict;
  /** The factor the text states, ≥ 1. */
  factor: number;
}

/**
 * Words async/sync = `ratio` for a metric where `direction` is better. Larger async values are
 * slower for lower-is-better metrics and faster for higher-is-better ones; time and rate
 * metrics say faster/slower, the others better/worse.
 */
export function describeRatio(ratio: number, direction: Direction, baseUnit: string): RatioWording {
  const { factor, verdict } = compareRatio(ratio, direction, baseUnit);
  if (verdict === "same") return { text: "async about the same (1.00×)", verdict, factor };
  return { text: `async ${formatFactor(factor)} ${verdict}`, verdict, factor };
}

/** "1.93 – 2.26 (95%)" for a confidence interval, "0.966 – 1.08 (range)" for a range. */
export function formatInterval(interval: RatioInterval): string {
  const bounds = `${interval.low.toPrecision(3)} – ${interval.high.toPrecision(3)}`;
  return interval.level === null ? `${bounds} (range)` : `${bounds} (${Math.round(interval.level * 100)}%)`;
}
