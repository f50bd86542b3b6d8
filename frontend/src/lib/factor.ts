/**
 * How one value compares with another, as readers say it: a factor ≥ 1 and a verdict in the words
 * a study's findings use (`FindingOut.verdict`, worded by the service's `findings/wording.py`):
 * time and rate metrics say faster/slower, the others more/fewer of the metric. Which way is
 * better is the metric's direction, kept apart from the words for the colours. The service's own
 * verdicts for a few ratios (`RATIO_EXAMPLES`) are checked against this in the tests.
 */
import type { Finding } from "../api/types";
import { type Direction, measuresSpeed } from "./units";

export type FactorVerdict = Finding["verdict"];

export interface Comparison {
  /** ≥ 1: 2.09 for both 2.09× slower and 2.09× faster. */
  factor: number;
  verdict: FactorVerdict;
  /** Whether the value is the better one; null when about the same. */
  better: boolean | null;
}

/** "2.09×", "66.7×", "1,230×". */
export function formatFactor(factor: number): string {
  return `${Number(factor.toPrecision(3)).toLocaleString("en-US", { maximumFractionDigits: 12 })}×`;
}

/** value / reference = `ratio`, for a metric of `baseUnit` where `direction` is better. */
export function compareRatio(ratio: number, direction: Direction, baseUnit: string): Comparison {
  const factor = ratio >= 1 ? ratio : 1 / ratio;
  if (Number(factor.toPrecision(3)) === 1) return { factor: 1, verdict: "same", better: null };
  const better = direction === "higher" ? ratio > 1 : ratio < 1;
  if (measuresSpeed(baseUnit)) return { factor, verdict: better ? "faster" : "slower", better };
  return { factor, verdict: ratio > 1 ? "more" : "fewer", better };
}

/** "2.09× slower", "2× more memory", "about the same". */
export function comparisonText({ factor, verdict }: Comparison, metric?: string): string {
  if (verdict === "same") return "about the same";
  const of = (verdict === "more" || verdict === "fewer") && metric ? ` ${metric.replaceAll("_", " ")}` : "";
  return `${formatFactor(factor)} ${verdict}${of}`;
}

/** The class that colours a comparison: better, worse or the same. */
export function verdictClass({ better }: Pick<Comparison, "better">): string {
  return better === null ? "verdict-same" : better ? "verdict-better" : "verdict-worse";
}
