// A step in a new series, uploaded through the API and detected by the service: the change the
// regression specs triage and the accessibility scan reads.
import type { Regression, RegressionPage } from "../src/api/types";
import { expect, type Service, type UploadBody, uniqueSuite } from "./fixtures";

const DAY = 86_400_000;

/** The commit run `i` measured: 40 hex digits, a different one per run. */
export const commitOf = (i: number) => (i + 1).toString(16).padStart(2, "0").repeat(20);

/** 10 runs near 100 µs, then 8 near 130 µs, one a day, of one new series, each of its own commit. */
function stepRuns(suite: string): UploadBody[] {
  const start = Date.parse("2025-01-01T00:00:00Z");
  return Array.from({ length: 18 }, (_, i) => ({
    id: crypto.randomUUID(),
    suite,
    name: `step run ${i + 1}`,
    started_at: new Date(start + i * DAY).toISOString(),
    hardware: { name: "e2e-runner" },
    git: { commit: commitOf(i) },
    results: [
      {
        benchmark: "parse-json",
        params: { size: "1MiB" },
        language: "rust",
        implementation: "serde_json",
        metric: "latency",
        unit: "us",
        // ±1 % of deterministic jitter, so the step is the only change.
        value: (i < 10 ? 100 : 130) * (1 + (((i * 7) % 5) - 2) / 200),
      },
    ],
  }));
}

/** Uploads a step into a new suite and waits until the service has detected it. */
export async function detectedStep(service: Service): Promise<Regression> {
  const suite = uniqueSuite("step");
  for (const run of stepRuns(suite)) await service.upload(run);
  // Detection runs in the background after each upload commits.
  let found: Regression | undefined;
  await expect
    .poll(
      async () => {
        const { items } = await service.get<RegressionPage>(`/api/v1/regressions?suite=${suite}`);
        found = items.find((r) => r.direction === "regression");
        return found && { status: found.status, started_at: found.started_at };
      },
      { message: "the step is detected at the first slower run", timeout: 60_000 },
    )
    .toEqual({ status: "untriaged", started_at: "2025-01-11T00:00:00Z" });
  return found as Regression;
}
