/**
 * The async/sync ratio: its wording and its 95% interval.
 *
 * Interval method (also shown on the page):
 * - Where both sides carry n ≥ 2 and a standard deviation (stats.n + stats.stddev, or a summary
 *   of the samples), the interval is the delta method on the log ratio:
 *   Var(ln r) ≈ s_a² / (n_a · m_a²) + s_s² / (n_s · m_s²), with m the mean (or the value) and
 *   r · exp(± t · √Var) as the bounds; t is Student's 0.975 quantile with Welch–Satterthwaite
 *   degrees of freedom on that log scale. A side without them counts as exact.
 * - Otherwise, where a side reports a range (stats.min / stats.max), the bounds are the extreme
 *   ratios the ranges allow: min_a / max_s … max_a / min_s. That is a range, not a confidence interval.
 * - Otherwise there is no interval.
 */
import type { ModeSide } from "../../../api/types";
import type { RatioVerdict } from "../../../components/charts/RatioBarChart";
import { type Direction, measuresSpeed, toBase } from "../../../lib/units";

/** What the interval uses of a side of a pair. */
export type SideValue = Pick<ModeSide, "value" | "unit" | "value_base" | "stats">;

export interface RatioWording {
  /** "async 2.09× slower". */
  text: string;
  verdict: RatioVerdict;
  /** The factor the text states, ≥ 1. */
  factor: number;
}

function formatFactor(factor: number): string {
  return `${Number(factor.toPrecision(3)).toLocaleString("en-US", { maximumFractionDigits: 12 })}×`;
}

/**
 * Words async/sync = `ratio` for a metric where `direction` is better. Larger async values are
 * slower for lower-is-better metrics and faster for higher-is-better ones; time and rate
 * metrics say faster/slower, the others better/worse.
 */
export function describeRatio(ratio: number, direction: Direction, baseUnit: string): RatioWording {
  const factor = ratio >= 1 ? ratio : 1 / ratio;
  if (Number(factor.toPrecision(3)) === 1)
    return { text: "async about the same (1.00×)", verdict: "same", factor: 1 };
  const asyncIsBetter = direction === "higher" ? ratio > 1 : ratio < 1;
  const speed = measuresSpeed(baseUnit);
  const verdict: RatioVerdict = speed
    ? asyncIsBetter
      ? "faster"
      : "slower"
    : asyncIsBetter
      ? "better"
      : "worse";
  return { text: `async ${formatFactor(factor)} ${verdict}`, verdict, factor };
}

export interface RatioInterval {
  low: number;
  high: number;
  method: "delta" | "range";
}

/** Student's t 0.975 quantiles for 1–30 degrees of freedom. */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** Student's t 0.975 quantile; degrees of freedom are rounded down, so the interval errs wide. */
export function t975(df: number): number {
  if (!Number.isFinite(df) || df > 1000) return 1.96;
  if (df < 1) return T975[0] as number;
  if (df <= 30) return T975[Math.floor(df) - 1] as number;
  if (df <= 40) return 2.021;
  if (df <= 60) return 2.0;
  if (df <= 120) return 1.98;
  return 1.96;
}

interface LogVariance {
  variance: number;
  n: number;
}

function logVariance(side: SideValue): LogVariance | null {
  const { n, stddev, mean } = side.stats ?? {};
  const m = mean ?? side.value;
  if (typeof n !== "number" || n < 2 || typeof stddev !== "number" || !m) return null;
  return { variance: (stddev * stddev) / (n * m * m), n };
}

function deltaInterval(ratio: number, a: LogVariance | null, s: LogVariance | null): RatioInterval | null {
  const parts = [a, s].filter((p): p is LogVariance => p !== null);
  if (parts.length === 0) return null;
  const variance = parts.reduce((sum, p) => sum + p.variance, 0);
  const denominator = parts.reduce((sum, p) => sum + (p.variance * p.variance) / (p.n - 1), 0);
  const df = denominator > 0 ? (variance * variance) / denominator : Number.POSITIVE_INFINITY;
  const half = t975(df) * Math.sqrt(variance);
  return { low: ratio * Math.exp(-half), high: ratio * Math.exp(half), method: "delta" };
}

function bounds(side: SideValue): [number, number] | null {
  const { min, max } = side.stats ?? {};
  if (typeof min !== "number" && typeof max !== "number") return null;
  return [toBase(min ?? side.value, side.unit), toBase(max ?? side.value, side.unit)];
}

function rangeInterval(sync: SideValue, async: SideValue): RatioInterval | null {
  const a = bounds(async);
  const s = bounds(sync);
  if (!a && !s) return null;
  const [aLow, aHigh] = a ?? [async.value_base, async.value_base];
  const [sLow, sHigh] = s ?? [sync.value_base, sync.value_base];
  if (sLow <= 0 || sHigh <= 0) return null;
  return { low: aLow / sHigh, high: aHigh / sLow, method: "range" };
}

/** The 95% interval of async/sync, or the range its reported ranges allow; null without either. */
export function ratioInterval(sync: SideValue, async: SideValue, ratio: number): RatioInterval | null {
  return deltaInterval(ratio, logVariance(async), logVariance(sync)) ?? rangeInterval(sync, async);
}
