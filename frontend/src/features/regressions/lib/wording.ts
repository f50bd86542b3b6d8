/** How regressions read: their size, confidence, status and audit trail. */
import type { Regression, RegressionStatus } from "../../../api/types";
import { TRIAGE_STATUSES } from "../../../api/vocabulary";
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

/** "+30.0 % slower", "−20.0 % slower" (throughput fell), "+12.5 % better" (a non-speed unit). */
export function formatSize(change: SizeInput): string {
  const percent = change.relative_change * 100;
  const digits = Math.abs(percent) >= 100 ? 0 : 1;
  const sign = percent > 0 ? "+" : percent < 0 ? "−" : "";
  const worse = change.direction === "regression";
  const word = measuresSpeed(change.series.base_unit)
    ? worse
      ? "slower"
      : "faster"
    : worse
      ? "worse"
      : "better";
  return `${sign}${Math.abs(percent).toFixed(digits)} % ${word}`;
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

/** One line per change of an audit-trail event: "status: untriaged → acknowledged". */
export function describeChanges(changes: Record<string, unknown>): string[] {
  return Object.entries(changes).map(([field, change]) => {
    if (field === "detected" && change && typeof change === "object" && !Array.isArray(change)) {
      const { relative_change, confidence } = change as { relative_change?: unknown; confidence?: unknown };
      const size =
        typeof relative_change === "number"
          ? `${relative_change >= 0 ? "+" : "−"}${Math.abs(relative_change * 100).toFixed(1)} %`
          : "";
      const sure = typeof confidence === "number" ? `, confidence ${formatConfidence(confidence)}` : "";
      return `detected ${size}${sure}`.trim();
    }
    if (field === "retracted" && Array.isArray(change) && change[1] === true)
      return "retracted: later runs no longer show it";
    if (Array.isArray(change) && change.length === 2)
      return `${field}: ${show(change[0])} → ${show(change[1])}`;
    return `${field}: ${show(change)}`;
  });
}
