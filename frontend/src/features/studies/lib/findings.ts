/** What a study page says about a finding beyond its sentence: interval, values, where it comes from. */
import type { Finding, FindingSide, StudyRun } from "../../../api/types";
import { ANNOTATION_PARAMS, boardHref, groupKey, HARDWARE } from "../../../lib/board";
import { formatFactor } from "../../../lib/factor";
import { formatValue } from "../../../lib/units";

export interface FactorInterval {
  low: number;
  high: number;
  /** A 95% confidence interval, or the range the reported min/max allow. */
  kind: "confidence" | "range";
  /** Whether the interval allows no difference at all (it holds 1×). */
  holdsOne: boolean;
}

/** The interval of the factor the sentence states (≥ 1), so it reads beside "2.09× slower". */
export function factorInterval(finding: Finding): FactorInterval | null {
  const { interval, ratio } = finding;
  if (!interval) return null;
  const [low, high] = ratio >= 1 ? [interval.low, interval.high] : [1 / interval.high, 1 / interval.low];
  return {
    low,
    high,
    kind: interval.level === null ? "range" : "confidence",
    holdsOne: interval.low <= 1 && 1 <= interval.high,
  };
}

/** "95% interval 1.95×–2.05×", "range 3.33×–3.44× allowed by the reported ranges". */
export function intervalText(interval: FactorInterval): string {
  const bounds = `${formatFactor(interval.low)}–${formatFactor(interval.high)}`;
  const text =
    interval.kind === "confidence"
      ? `95% interval ${bounds}`
      : `range ${bounds} allowed by the reported ranges`;
  return interval.holdsOne ? `${text}; it holds 1×, so no clear difference` : text;
}

/** "async: 120 µs". */
export function sideText(side: FindingSide): string {
  return `${side.label}: ${formatValue(side.value, side.unit)}`;
}

/** "async − sync = 62.5 µs" (in the finding's base unit). */
export function differenceText(finding: Finding): string {
  const sign = finding.difference_base < 0 ? "−" : "";
  const size = formatValue(Math.abs(finding.difference_base), finding.base_unit);
  return `${finding.numerator.label} − ${finding.denominator.label} = ${sign}${size}`;
}

/** Params (and the machine) in which the two sides differ. */
function differingKeys(a: FindingSide, b: FindingSide): string[] {
  const keys = new Set([...Object.keys(a.params), ...Object.keys(b.params)]);
  const differing = [...keys].filter((key) => a.params[key] !== b.params[key]);
  return a.hardware === b.hardware ? differing : [...differing, HARDWARE];
}

/**
 * The leaderboard that holds both sides: the numerator's benchmark and metric, merged across the
 * annotations and whatever else the two sides differ in (iodepth, cores, the machine).
 */
export function findingBoardHref(finding: Finding): string {
  const { numerator, denominator } = finding;
  const ignore = [...new Set([...ANNOTATION_PARAMS, ...differingKeys(numerator, denominator)])].sort();
  return boardHref({
    suite: finding.suite,
    benchmark: numerator.benchmark,
    metric: numerator.metric,
    ignore,
    group: groupKey(numerator.hardware, numerator.params, ignore),
  });
}

export interface Dating {
  /**
   * The badge: "date estimated" when every run's date is an estimate (tag date_estimated=true),
   * "1 of 2 dates estimated" when some are, "" when none is.
   */
  badge: string;
  /** Why, once each (tag date_basis). */
  bases: string[];
}

export function studyDating(runs: readonly Pick<StudyRun, "tags">[]): Dating {
  const estimated = runs.filter((run) => run.tags.date_estimated === "true");
  const bases = estimated
    .map((run) => run.tags.date_basis)
    .filter((basis): basis is string => Boolean(basis));
  const badge =
    estimated.length === 0
      ? ""
      : estimated.length === runs.length
        ? "date estimated"
        : `${estimated.length} of ${runs.length} dates estimated`;
  return { badge, bases: [...new Set(bases)] };
}
