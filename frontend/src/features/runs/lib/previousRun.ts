/** Finds the run to compare a run with: the latest earlier run of the same suite and hardware. */
import type { RunSummary } from "../../../api/types";

type RunKey = Pick<RunSummary, "id" | "suite" | "hardware_name" | "started_at">;

export function previousRun<R extends RunKey>(runs: readonly R[], current: RunKey): R | null {
  const at = Date.parse(current.started_at);
  const earlier = runs.filter(
    (r) =>
      r.id !== current.id &&
      r.suite === current.suite &&
      r.hardware_name === current.hardware_name &&
      Date.parse(r.started_at) <= at,
  );
  earlier.sort((a, b) => Date.parse(b.started_at) - Date.parse(a.started_at));
  return earlier[0] ?? null;
}
