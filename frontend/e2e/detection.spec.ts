// Short histories end to end: a new series says it has too little history for change detection,
// on its History page and on an empty Regressions page; after three quiet runs and two 30 % slower
// ones the regression is listed with the evidence it rests on.
import type { RegressionPage, SeriesList } from "../src/api/types";
import { expect, type Service, test, type UploadBody, uniqueSuite } from "./fixtures";

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
  await page.goto(`/regressions?suite=${suite}`);
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
  await page.goto(`/regressions?suite=${suite}`);
  const row = page.locator(`li[data-regression="${regression?.id}"]`);
  await expect(row).toContainText(/\+\d\d\.\d % slower/);
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
