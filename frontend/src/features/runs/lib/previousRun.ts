/** Finds the run to compare a run with: the latest earlier run of the same suite and hardware. */

export interface RunLike {
  id: string;
  suite: string;
  hardware_name: string;
  started_at: string;
}

export function previousRun<R extends RunLike>(runs: readonly R[], current: RunLike): R | null {
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
