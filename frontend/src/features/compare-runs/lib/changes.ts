/** Wording of a run-to-run change. */
import type { ComparisonVerdict } from "../../../api/types";

/** "+20.0%", "−3.5%", "0.0%"; "—" when there is no change to state. */
export function formatChange(relative: number | null | undefined): string {
  if (relative === null || relative === undefined || !Number.isFinite(relative)) return "—";
  const percent = relative * 100;
  const text = Math.abs(percent).toFixed(Math.abs(percent) >= 100 ? 0 : 1);
  if (text === "0.0") return "0.0%";
  return `${percent > 0 ? "+" : "−"}${text}%`;
}

/** How each verdict of the service reads; a verdict it adds must be worded here, or tsc fails. */
export const VERDICT_TEXT = {
  better: "better",
  worse: "worse",
  noise: "within noise",
} as const satisfies Record<ComparisonVerdict, string>;
