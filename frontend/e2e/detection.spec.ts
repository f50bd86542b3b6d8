// Short histories end to end: a new series says it has too little history for change detection,
// on its History page and on an empty Regressions page; after three quiet runs and two 30 % slower
// ones the regression is listed with the evidence it rests on. A regression's page says while its
// series waits for change detection, on a service of its own whose detection this spec starts.
import path from "node:path";
import type { RegressionPage, SeriesList } from "../src/api/types";
import { expect, type Service, test, type UploadBody, uniqueSuite } from "./fixtures";
import { REPO, startService } from "./harness.mjs";

const DAY = 86_400_000;

function runOf(suite: string, day: number, value: number): UploadBody {
  return {
    id: crypto.randomUUID(),
    suite,
    started_at: new Date(Date.parse("2025-03-01T00:00:00Z") + day * DAY).toISOString(),
    hardware: { name: "e2e-runner" },
    results: [{ benchmark: "cold-start", language: "go", metric: "latency", unit: "us", value }],
  };
}

/** The suite's regressions once no series of it waits for detection any more. */
async function checkedRegressions(service: Service, suite: string): Promise<RegressionPage> {
  let page: RegressionPage | undefined;
  await expect
    .poll(
      async () => {
        page = await service.get<RegressionPage>(`/api/v1/regressions?suite=${suite}`);
        return page.detection_pending_series;
      },
      { message: "detection has checked the suite", timeout: 60_000 },
    )
    .toBe(0);
  return page as RegressionPage;
}

test("a short history says what it lacks, then shows the regression after the second slow run", async ({
  page,
  service,
}) => {
  const suite = uniqueSuite("short");
  await service.upload(runOf(suite, 0, 100));
  await service.upload(runOf(suite, 1, 101));
  expect((await checkedRegressions(service, suite)).items).toEqual([]);
  const { items } = await service.get<SeriesList>(`/api/v1/series?suite=${suite}`);
  const seriesId = (items[0] as SeriesList["items"][number]).id;

  await page.goto(`/history?series=${seriesId}`);
  const state = page.getByRole("region", { name: "Change detection" });
  await expect(state).toContainText(
    "Not enough history: 1 more run needed for a baseline (2 so far); detection needs 3 runs before a change and 2 after.",
  );
  await page.goto(`/regressions?view=changes&suite=${suite}`);
  await expect(page.locator(".status-empty")).toContainText(
    "1 of the 1 series matching these filters has too little history for change detection to judge yet",
  );

  await service.upload(runOf(suite, 2, 100));
  await service.upload(runOf(suite, 3, 130));
  expect((await checkedRegressions(service, suite)).items, "one slow run is not enough").toEqual([]);
  await page.goto(`/history?series=${seriesId}`);
  await expect(state).toContainText(
    "Not enough history to judge a possible step at run 4 of 4 (+29.6%) yet: it needs 1 more run after it",
  );

  await service.upload(runOf(suite, 4, 131));
  const [regression] = (await checkedRegressions(service, suite)).items;
  expect(regression).toMatchObject({ direction: "regression", started_at: "2025-03-04T00:00:00Z" });
  await page.goto(`/regressions?view=changes&suite=${suite}`);
  const row = page.locator(`li[data-regression="${regression?.id}"]`);
  await expect(row).toContainText(/\+\d\d\.\d% slower/);
  await expect(row).toContainText("4 Mar 2025");
  // The evidence it rests on, in words; two runs after it, so not provisional.
  const evidence =
    /^Evidence: 3 runs before, 2 after · Student's t on run levels, replicates not used · p (<|=) 0\.\d+ · \+\d\d\.\d % \(99 % interval \+\d\d?\.\d % to \+\d\d\.\d %\)$/;
  await expect(row.getByTestId("evidence")).toHaveText(evidence);
  await expect(row.getByTestId("provisional")).toHaveCount(0);
  await row.getByRole("link", { name: `Details and triage of change ${regression?.id}` }).click();
  await expect(page.getByRole("heading", { name: `Regression #${regression?.id}` })).toBeVisible();
  await expect(page.getByTestId("evidence")).toHaveText(evidence);
});

test("a regression's page says while its series waits for change detection, then shows it checked", async ({
  page,
}) => {
  test.setTimeout(300_000);
  // No detection workers: a series stays queued until the test starts one, so the banner is
  // seen for certain, not raced against the worker.
  const own = await startService({
    dataDir: path.join(REPO, ".data", "e2e-pending"),
    env: { BENCHBOARD_DETECT_WORKERS: "0", BENCHBOARD_DEMO: "false" },
  });
  const workers: { stop(): Promise<unknown> }[] = [];
  const get = async <T>(pathname: string): Promise<T> => {
    const response = await fetch(`${own.base}${pathname}`);
    expect(response.status, pathname).toBe(200);
    return (await response.json()) as T;
  };
  const upload = async (body: UploadBody) => {
    const response = await fetch(`${own.base}/api/v1/runs`, {
      method: "POST",
      headers: { authorization: `Bearer ${own.token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(response.status, await response.text()).toBe(201);
  };
  const regressions = (suite: string) => get<RegressionPage>(`/api/v1/regressions?suite=${suite}`);
  try {
    const suite = uniqueSuite("pending");
    for (const [day, value] of [100, 101, 100, 130, 131].entries()) await upload(runOf(suite, day, value));
    expect((await regressions(suite)).detection_pending_series).toBe(1);
    workers.push(own.startWorker());
    await expect.poll(async () => (await regressions(suite)).items.length, { timeout: 120_000 }).toBe(1);
    await (workers.pop() as { stop(): Promise<unknown> }).stop();
    const [regression] = (await regressions(suite)).items;

    await upload(runOf(suite, 5, 130.5));
    expect((await regressions(suite)).detection_pending_series).toBe(1);
    await page.goto(`${own.base}/regressions/${regression?.id}`);
    const pending = page.getByTestId("detection-pending");
    await expect(pending).toHaveText(
      "Change detection pending for 1 series of this change: its size, evidence and status may still change once it is checked.",
    );
    await expect(page.getByTestId("evidence")).toContainText("3 runs before, 2 after");

    workers.push(own.startWorker());
    await expect(pending).toHaveCount(0, { timeout: 120_000 });
    // Checked again with the new run: the page shows the change as detection left it.
    await expect(page.getByTestId("evidence")).toContainText("3 runs before, 3 after");
  } finally {
    for (const worker of workers) await worker.stop();
    await own.stop();
  }
});
