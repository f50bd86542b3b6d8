/**
 * How one value compares with another, as readers say it: a factor ≥ 1 and a verdict. Time and
 * rate metrics say faster/slower, the others better/worse; which way is better is the metric's
 * direction.
 */
import { type Direction, measuresSpeed } from "./units";

export type FactorVerdict = "faster" | "slower" | "better" | "worse" | "same";

export interface Comparison {
  /** ≥ 1: 2.09 for both 2.09× slower and 2.09× faster. */
  factor: number;
  verdict: FactorVerdict;
}

/** "2.09×", "66.7×", "1,230×". */
export function formatFactor(factor: number): string {
  return `${Number(factor.toPrecision(3)).toLocaleString("en-US", { maximumFractionDigits: 12 })}×`;
}

/** value / reference = `ratio`, for a metric of `baseUnit` where `direction` is better. */
export function compareRatio(ratio: number, direction: Direction, baseUnit: string): Comparison {
  const factor = ratio >= 1 ? ratio : 1 / ratio;
  if (Number(factor.toPrecision(3)) === 1) return { factor: 1, verdict: "same" };
  const isBetter = direction === "higher" ? ratio > 1 : ratio < 1;
  const speed = measuresSpeed(baseUnit);
  const verdict: FactorVerdict = speed ? (isBetter ? "faster" : "slower") : isBetter ? "better" : "worse";
  return { factor, verdict };
}

/** "2.09× slower", "about the same". */
export function comparisonText({ factor, verdict }: Comparison): string {
  return verdict === "same" ? "about the same" : `${formatFactor(factor)} ${verdict}`;
}
