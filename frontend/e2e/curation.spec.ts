// Baseline curation end to end: a maintainer marks a run's result as an outlier on the History page
// (drawn hollow, left out of detection, restorable) and resets a series' baseline at a run.
import type { Page } from "@playwright/test";
import type { RegressionPage, SeriesList } from "../src/api/types";
import { expect, type Service, screenshots, test, type UploadBody, uniqueSuite } from "./fixtures";

const DAY = 86_400_000;

/** 10 runs near 100 µs, then 4 near 130 µs, one a day. */
function runs(suite: string): UploadBody[] {
  const start = Date.parse("2025-01-01T00:00:00Z");
  return Array.from({ length: 14 }, (_, i) => ({
    id: crypto.randomUUID(),
    suite,
    started_at: new Date(start + i * DAY).toISOString(),
    hardware: { name: "e2e-runner" },
    results: [
      {
        benchmark: "parse-json",
        language: "rust",
        metric: "latency",
        unit: "us",
        value: (i < 10 ? 100 : 130) * (1 + (((i * 7) % 5) - 2) / 200),
      },
    ],
  }));
}

async function seriesOf(service: Service): Promise<number> {
  const suite = uniqueSuite("curation");
  for (const run of runs(suite)) await service.upload(run);
  const { items } = await service.get<SeriesList>(`/api/v1/series?suite=${suite}`);
  return (items[0] as SeriesList["items"][number]).id;
}

/** The History page's token field is in its note form, shared by the curation panel. */
async function pasteToken(page: Page, token: string) {
  await page.locator(".annotation-form summary").click();
  await page.getByLabel("Maintainer token").fill(token);
  await page.getByRole("button", { name: "Use token" }).click();
  await expect(page.getByRole("button", { name: "Forget token" })).toBeVisible();
}

test.describe("baseline curation", () => {
  test("a maintainer marks a result as an outlier: drawn hollow, and restorable", async ({
    page,
    service,
  }) => {
    const seriesId = await seriesOf(service);
    await page.goto(`/history?series=${seriesId}`);
    const chart = page.locator("figure.chart");
    await expect(chart.locator(".recharts-line-dot")).toHaveCount(14);
    await pasteToken(page, service.maintainToken);
    const panel = page.getByRole("region", { name: `Baseline curation of series ${seriesId}` });
    await panel.getByLabel("Run").selectOption({ label: await panel.locator("option").nth(3).innerText() });
    await panel.getByRole("button", { name: "Mark as outlier" }).click();
    await expect(panel.locator("li[data-outlier-run]")).toHaveCount(1);
    await expect(chart.locator('.recharts-line-dot[data-outlier="true"]')).toHaveCount(1);
    await screenshots(page, "outlier-mark");
    await panel.getByRole("button", { name: "Restore" }).click();
    await expect(panel.locator("li[data-outlier-run]")).toHaveCount(0);
    await expect(chart.locator('.recharts-line-dot[data-outlier="true"]')).toHaveCount(0);
    // Restored, the mark stays on record with who undid it.
    await expect(panel).toContainText("1 mark on record");
  });

  test("an outlier is drawn hollow on its change's charts too", async ({ page, service, request }) => {
    const suite = uniqueSuite("curation");
    const uploads = runs(suite);
    for (const run of uploads) await service.upload(run);
    const { items } = await service.get<SeriesList>(`/api/v1/series?suite=${suite}`);
    const seriesId = (items[0] as SeriesList["items"][number]).id;
    const changes = () => service.get<RegressionPage>(`/api/v1/regressions?series_id=${seriesId}`);
    await expect.poll(async () => (await changes()).items.length, { timeout: 60_000 }).toBe(1);
    const marked = await request.put(`/api/v1/series/${seriesId}/outliers/${uploads[2]?.id}`, {
      data: {},
      headers: { authorization: `Bearer ${service.maintainToken}` },
    });
    expect(marked.status(), await marked.text()).toBe(200);
    const change = (await changes()).items[0];
    await page.goto(`/regressions/${change?.id}`);
    const charts = page.getByRole("region", { name: "The change drawn" });
    await expect(charts.locator(".recharts-line-dot")).toHaveCount(14);
    await expect(charts.locator('.recharts-line-dot[data-outlier="true"]')).toHaveCount(1);
    await expect(charts.locator('.strip-levels path[data-outlier="true"]')).toHaveCount(1);
    // Drawn, but not counted in its side's box: 9 of the 10 runs before the change.
    await expect(charts.getByText("before (9 runs)")).toBeVisible();
    await expect(charts.getByText("after (4 runs)")).toBeVisible();
    await expect(charts).toContainText("hollow: marked outliers, left out of the box");
    await expect(charts.locator("td", { hasText: "before, marked outlier" })).toHaveCount(1);
    await screenshots(page, "outlier-on-change");
  });

  test("a maintainer resets the baseline at a run", async ({ page, service }) => {
    const seriesId = await seriesOf(service);
    const changes = async () =>
      (await service.get<RegressionPage>(`/api/v1/regressions?series_id=${seriesId}`)).items.length;
    await expect.poll(changes, { message: "the step is detected", timeout: 60_000 }).toBe(1);
    await page.goto(`/history?series=${seriesId}`);
    await pasteToken(page, service.maintainToken);
    const panel = page.getByRole("region", { name: `Baseline curation of series ${seriesId}` });
    // The runs are listed newest first: the fourth is the first slower run.
    const firstSlower = await panel.locator("option").nth(3).innerText();
    await panel.getByLabel("Run").selectOption({ label: firstSlower });
    await panel.getByRole("button", { name: "Reset baseline here" }).click();
    await expect(panel.getByTestId("baseline-reset")).toContainText(`Baseline reset at ${firstSlower}`);
    // The worker checks the series again from the reset: the change before it is no longer shown.
    await expect
      .poll(
        async () =>
          (await service.get<{ items: unknown[] }>(`/api/v1/regressions?series_id=${seriesId}`)).items,
        {
          timeout: 60_000,
        },
      )
      .toEqual([]);
    await screenshots(page, "baseline-reset");
    await panel.getByRole("button", { name: "Undo reset" }).click();
    await expect(panel.getByTestId("baseline-reset")).toHaveCount(0);
  });
});
