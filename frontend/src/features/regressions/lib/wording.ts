/** How regressions read: their size, confidence, status and audit trail. */
import type { DetectionEvidence, Regression, RegressionEvent, RegressionStatus } from "../../../api/types";
import { CHANGE_WORDS, TRIAGE_STATUSES } from "../../../api/vocabulary";
import { formatPValue } from "../../../lib/pValue";
import { measuresSpeed } from "../../../lib/units";

/** What each triage status means; a status the service adds must be explained here, or tsc fails. */
export const STATUS_TEXT = {
  untriaged: "not looked at yet",
  acknowledged: "seen; a real change",
  investigating: "someone is looking into it",
  fixed: "a later change fixed it",
  wontfix: "real, but it stays",
  expected: "an intended change: the baseline resets",
  invalid: "noise or infrastructure, not the code",
} as const satisfies Record<RegressionStatus, string>;

/** Every triage status in the service's order, the order a maintainer meets them, with its meaning. */
export const STATUSES = TRIAGE_STATUSES.map((value) => ({ value, text: STATUS_TEXT[value] }));

type SizeInput = Pick<Regression, "direction" | "relative_change"> & {
  series: Pick<Regression["series"], "base_unit" | "direction">;
};

/**
 * "+30.0% slower", "−20.0% slower" (throughput fell), "+12.5% worse" (a non-speed unit): the
 * service's wording of a change (`compare.baseline.word_change_size`), with its words from the
 * vocabulary; `WORDING_EXAMPLES` holds the service's own sentences, and the tests check these
 * read the same.
 */
export function formatSize(change: SizeInput): string {
  const percent = change.relative_change * 100;
  const digits = Math.abs(percent) >= 100 ? 0 : 1;
  const sign = percent > 0 ? "+" : percent < 0 ? "−" : "";
  const words = CHANGE_WORDS[measuresSpeed(change.series.base_unit) ? "speed" : "other"];
  return `${sign}${Math.abs(percent).toFixed(digits)}% ${words[change.direction]}`;
}

/** "+29.4 %", "−3.0 %": a relative change with its sign, one decimal. */
export function signedPercent(fraction: number): string {
  return `${fraction >= 0 ? "+" : "−"}${Math.abs(fraction * 100).toFixed(1)} %`;
}

/** How each detection test reads; a test the service adds must be worded here, or tsc fails. */
export const TEST_TEXT = {
  rank_sum: "rank-sum test on run levels",
  two_level_t: "two-level t-test (replicates and run-to-run noise)",
  student_t: "Student's t on run levels",
} as const satisfies Record<DetectionEvidence["test"], string>;

/**
 * What a detected change rests on, in one line: "3 runs before, 2 after · Student's t on run
 * levels, replicates not used · p = 0.0021 · +29.4 % (99 % interval +26.1 % to +32.7 %)".
 */
export function formatEvidence(evidence: DetectionEvidence, relativeChange: number): string {
  const runs = (n: number) => `${n} run${n === 1 ? "" : "s"}`;
  const { interval_low: low, interval_high: high } = evidence;
  const interval =
    low !== null && high !== null
      ? ` (${Math.round(evidence.interval_level * 100)} % interval ${signedPercent(low)} to ${signedPercent(high)})`
      : "";
  return [
    `${runs(evidence.runs_before)} before, ${evidence.runs_after} after`,
    `${TEST_TEXT[evidence.test]}, replicates ${evidence.replicates_used ? "used" : "not used"}`,
    // The service leaves it out on changes stored before it had it.
    formatPValue(evidence.p_value, "p not stored"),
    `${signedPercent(relativeChange)}${interval}`,
  ].join(" · ");
}

/** "97 %" for 0.978: rounded down, so only certainty reads as 100 %; "—" when not a number. */
export function formatConfidence(confidence: number): string {
  if (!Number.isFinite(confidence)) return "—";
  return `${Math.floor(Math.min(1, Math.max(0, confidence)) * 100)} %`;
}

/** The link list a maintainer typed: one URL per line or separated by spaces, without repeats. */
export function parseLinks(text: string): string[] {
  return [...new Set(text.split(/\s+/).filter(Boolean))];
}

function show(value: unknown): string {
  if (value === null || value === undefined || value === "") return "(none)";
  if (Array.isArray(value)) return value.length ? value.map(String).join(", ") : "(none)";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return value.length > 80 ? `“${value.slice(0, 79)}…”` : `“${value}”`;
  return JSON.stringify(value);
}

/** An event's changes as the client reads them: the client widens each [before, after] to an array. */
type AuditChanges = Pick<RegressionEvent["changes"], "detected"> & {
  retracted?: readonly boolean[] | null;
  moved?: readonly (number | null)[] | null;
} & Readonly<Record<string, unknown>>;

/** A triaged change that new data moved (`EventChanges.moved`): the change itself is left as triaged. */
function describeMove([was, now]: readonly (number | null)[]): string {
  if (now === null || now === undefined) return "new data no longer shows it; kept as triaged";
  const from = was === null || was === undefined ? "not shown" : signedPercent(was);
  return `new data moved it: ${from} → ${signedPercent(now)}; kept as triaged`;
}

/**
 * One line per change of an audit-trail event (`EventChanges`: only what the event changed):
 * "status: untriaged → acknowledged", "detected +30.0 %, confidence 99 %",
 * "new data moved it: +30.0 % → +45.0 %; kept as triaged".
 */
export function describeChanges(changes: AuditChanges): string[] {
  return Object.entries(changes).map(([field, change]) => {
    if (field === "detected" && changes.detected) {
      const { relative_change, confidence } = changes.detected;
      return `detected ${signedPercent(relative_change)}, confidence ${formatConfidence(confidence)}`;
    }
    if (field === "moved" && changes.moved) return describeMove(changes.moved);
    if (field === "retracted" && changes.retracted?.[1] === true)
      return "retracted: later runs no longer show it";
    if (Array.isArray(change) && change.length === 2)
      return `${field}: ${show(change[0])} → ${show(change[1])}`;
    return `${field}: ${show(change)}`;
  });
}
