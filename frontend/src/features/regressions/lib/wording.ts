/** How regressions read: their size, confidence, status and audit trail. */
import type { ChangeDirection, Regression, RegressionStatus } from "../../../api/types";

/** Every triage status, in the order a maintainer meets them, with what it means. */
export const STATUSES = [
  { value: "untriaged", text: "not looked at yet" },
  { value: "acknowledged", text: "seen; a real change" },
  { value: "investigating", text: "someone is looking into it" },
  { value: "fixed", text: "a later change fixed it" },
  { value: "wontfix", text: "real, but it stays" },
  { value: "expected", text: "an intended change: the baseline resets" },
  { value: "invalid", text: "noise or infrastructure, not the code" },
] as const satisfies readonly { value: RegressionStatus; text: string }[];

export const DIRECTIONS = ["regression", "improvement"] as const satisfies readonly ChangeDirection[];

/** Units where worse means slower: times and rates. */
const SPEED_UNITS = new Set(["s", "ops/s", "req/s", "B/s"]);

type SizeInput = Pick<Regression, "direction" | "relative_change"> & {
  series: Pick<Regression["series"], "base_unit" | "direction">;
};

/** "+30.0 % slower", "−20.0 % slower" (throughput fell), "+12.5 % better" (a non-speed unit). */
export function formatSize(change: SizeInput): string {
  const percent = change.relative_change * 100;
  const digits = Math.abs(percent) >= 100 ? 0 : 1;
  const sign = percent > 0 ? "+" : percent < 0 ? "−" : "";
  const worse = change.direction === "regression";
  const word = SPEED_UNITS.has(change.series.base_unit)
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
