// Regressions end to end: a step uploaded through the API is detected by the service, listed on the
// Regressions page, triaged by a maintainer in the browser, and marked on the series' history chart.
// Each test uploads its own step into a suite of its own, so they run in any order.
import type { Page } from "@playwright/test";
import type { Regression, RunList } from "../src/api/types";
import { expect, screenshots, tabTo, test } from "./fixtures";
import { commitOf, detectedStep } from "./steps";

/** Pastes a token into the page's token field, which must hold none. */
async function pasteToken(page: Page, token: string) {
  await page.getByLabel("Maintainer token").fill(token);
  await page.getByRole("button", { name: "Use token" }).click();
  await expect(page.getByRole("button", { name: "Forget token" })).toBeVisible();
}

test.describe("regressions", () => {
  test("a 30 % step in an uploaded series is detected", async ({ service }) => {
    const regression = await detectedStep(service);
    expect(regression.relative_change).toBeGreaterThan(0.27);
    expect(regression.relative_change).toBeLessThan(0.33);
  });

  test("the Regressions page lists it, filtered through the URL", async ({ page, service }) => {
    const regression = await detectedStep(service);
    const suite = regression.series.suite;
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Regressions" }).click();
    await expect(page).toHaveURL(/\/regressions$/);
    await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Every change" }).click();
    await expect(page).toHaveURL(/view=changes/);
    await page.locator('select[name="suite"]').selectOption(suite);
    await expect(page).toHaveURL(new RegExp(`suite=${suite}`));
    await page.locator('select[name="status"]').selectOption("untriaged");
    await expect(page).toHaveURL(/status=untriaged/);
    await expect(page.locator("li[data-regression]")).toHaveCount(1);
    const row = page.locator(`li[data-regression="${regression.id}"]`);
    await expect(row).toContainText(/\+\d\d\.\d% slower/);
    await expect(row).toContainText("11 Jan 2025");
    await expect(row).toContainText(/confidence \d+ %/);
    await expect(row).toContainText("parse-json (size=1MiB)");
    await expect(row.locator(".badge")).toHaveText("untriaged");
  });

  test("its page draws the history around the change and each side's runs", async ({ page, service }) => {
    const regression = await detectedStep(service);
    const { items: runs } = await service.get<RunList>(
      `/api/v1/runs?suite=${regression.series.suite}&limit=100`,
    );
    const previous = runs.find((r) => r.started_at === "2025-01-10T00:00:00Z");
    await page.goto(`/regressions/${regression.id}`);
    const around = page.getByRole("region", { name: "The change drawn" });
    const history = around.locator("figure.chart").filter({ hasText: "History around the change" });
    await expect(history.locator(".recharts-line-curve")).toBeVisible();
    await expect(history.locator('.marker-label[data-kind="regression"]')).toHaveCount(1);
    const strips = around.locator("figure.chart").filter({ hasText: "Before and after" });
    // One dot per run: 10 before the step, 8 from it on; a box and a median per side.
    await expect(strips.locator(".strip-levels .recharts-scatter-symbol")).toHaveCount(18);
    await expect(strips.locator(".strip-median")).toHaveCount(2);
    await expect(strips).toContainText("before (10 runs)");
    await expect(strips).toContainText("after (8 runs)");
    // The commit range: the last run before the step (the 10th) to the run it was found at.
    await expect(around.locator(".commit-range")).toContainText(
      `${commitOf(9).slice(0, 12)} → ${commitOf(10).slice(0, 12)}`,
    );
    const compare = around.getByRole("link", { name: "Compare with the previous run" });
    await expect(compare).toHaveAttribute(
      "href",
      `/compare?${new URLSearchParams({ baseline: previous?.id ?? "", contender: regression.run_id })}`,
    );
    await screenshots(page, "regression-chart");
    await compare.click();
    await expect(page.locator('table.data-table td[data-column="change"]').first()).toContainText("%");
  });

  test("a maintainer triages it with a pasted token; refused tokens are explained", async ({
    page,
    service,
  }) => {
    const regression = await detectedStep(service);
    await page.goto(`/regressions?view=changes&suite=${regression.series.suite}`);
    await page
      .locator(`li[data-regression="${regression.id}"]`)
      .getByRole("link", { name: /triage/i })
      .click();
    await expect(page).toHaveURL(new RegExp(`/regressions/${regression.id}$`));
    const save = page.getByRole("button", { name: "Save triage" });
    await expect(save, "no token, no saving").toBeDisabled();

    await pasteToken(page, "not-a-real-token");
    await page.getByLabel("Status").selectOption("acknowledged");
    await save.click();
    await expect(page.getByRole("alert")).toContainText("Error 401");
    // A token the service does not know is forgotten at once, its field empty and focused again.
    await expect(page.locator(".triage")).toContainText("did not accept the token");
    await expect(page.getByLabel("Maintainer token")).toBeFocused();
    await expect(page.getByLabel("Maintainer token")).toHaveValue("");
    expect(await page.evaluate(() => Object.values(sessionStorage))).toEqual([]);
    await pasteToken(page, service.uploadToken);
    await save.click();
    await expect(page.getByRole("alert")).toContainText("Error 403");
    await expect(page.locator(".triage")).toContainText("maintain or admin scope");

    // A weaker token is valid elsewhere, so it stays until the maintainer swaps it.
    await page.getByRole("button", { name: "Forget token" }).click();
    await pasteToken(page, service.maintainToken);
    await page.getByLabel("Note").fill("Known: the new allocator; tracked upstream.");
    await page.getByLabel("Links (one per line)").fill("https://github.com/example/parser/issues/42");
    await save.click();
    await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
    await expect(page.locator("h1 .badge")).toHaveText("acknowledged");
    const trail = page.locator(".audit-trail");
    await expect(trail.getByText("status: “untriaged” → “acknowledged”")).toBeVisible();
    await expect(trail).toContainText(/maintainer-\d+/);
    await expect(trail).toContainText("detector");

    const stored = await page.evaluate(() => ({
      session: Object.values(sessionStorage),
      local: Object.values(localStorage),
    }));
    expect(stored.session, "the token lives in sessionStorage").toEqual([service.maintainToken]);
    expect(stored.local, "and nowhere longer-lived").toEqual([]);
    const saved = await service.get<Regression>(`/api/v1/regressions/${regression.id}`);
    expect(saved).toMatchObject({
      status: "acknowledged",
      note: "Known: the new allocator; tracked upstream.",
      links: ["https://github.com/example/parser/issues/42"],
    });
    await screenshots(page, "regression-triage");

    await page.goto(`/regressions?view=changes&suite=${regression.series.suite}`);
    const row = page.locator(`li[data-regression="${regression.id}"]`);
    await expect(row.locator(".badge")).toHaveText("acknowledged");
    await expect(row).toContainText("Known: the new allocator");
    await screenshots(page, "regressions");
  });

  test("the history chart marks the change with its status and note, and takes a maintainer's note", async ({
    page,
    service,
  }) => {
    const regression = await detectedStep(service);
    await service.patchAsMaintainer(`/api/v1/regressions/${regression.id}`, {
      status: "acknowledged",
      note: "Known: the new allocator; tracked upstream.",
    });
    await page.goto(`/regressions?view=changes&suite=${regression.series.suite}`);
    await page
      .locator(`li[data-regression="${regression.id}"]`)
      .getByRole("link", { name: /parse-json/ })
      .click();
    await expect(page).toHaveURL(new RegExp(`/history\\?series=${regression.series.id}$`));
    const marker = page.locator('figure.chart .marker-label[data-kind="regression"]');
    await expect(marker.locator('.marker-badge[data-status="acknowledged"]')).toHaveCount(1);
    await expect(marker.locator("title")).toHaveText(
      /^regression \(acknowledged\): \+\d\d\.\d% slower — “Known: the new allocator/,
    );
    const listed = page.locator(`.chart-note[data-key="regression-${regression.id}"]`);
    await expect(listed.locator(".badge")).toHaveText("acknowledged");
    await expect(listed).toContainText("Known: the new allocator");

    await page.getByText("Add a note to a series").click();
    await pasteToken(page, service.maintainToken);
    await page.getByLabel("Date (UTC)").fill("2025-01-05");
    await page.locator(".annotation-form").getByLabel("Note").fill("Runner moved to kernel 6.8");
    await page.getByRole("button", { name: "Add note" }).click();
    await expect(
      page.locator(".chart-note-annotation", { hasText: "Runner moved to kernel 6.8" }),
    ).toBeVisible();
    await expect(page.locator('figure.chart .marker-label[data-kind="annotation"] title')).toHaveText(
      /^annotation: Runner moved to kernel 6.8/,
    );
    await page.locator(".annotation-form summary").click(); // closed again for the pictures
    await screenshots(page, "history-markers");
  });
});

test.describe("regressions by keyboard", () => {
  test("a maintainer reaches a change, pastes a token and saves a status with no mouse", async ({
    page,
    service,
  }) => {
    const regression = await detectedStep(service);
    await page.goto(`/regressions?view=changes&suite=${regression.series.suite}`);
    const triage = page
      .locator(`li[data-regression="${regression.id}"]`)
      .getByRole("link", { name: /triage/i });
    await tabTo(page, triage, 80);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/regressions/${regression.id}$`));
    // The new page's heading has the focus and is announced; reading (and tabbing) starts there.
    await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
    await expect(page.getByTestId("page-announcement")).toHaveText(/^Regression #\d+ untriaged page$/);

    await tabTo(page, page.getByLabel("Maintainer token"), 80);
    await page.keyboard.type(service.maintainToken);
    await page.keyboard.press("Enter");
    // The form gave way to the token's line: the focus is on what took its place.
    await expect(page.getByRole("button", { name: "Forget token" })).toBeFocused();
    await tabTo(page, page.getByLabel("Status"), 5);
    await page.keyboard.type("acknowledged");
    await expect(page.getByLabel("Status")).toHaveValue("acknowledged");
    const save = page.getByRole("button", { name: "Save triage" });
    await tabTo(page, save, 5);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
    await expect(page.locator("h1 .badge")).toHaveText("acknowledged");
    // The reader is where they were, on the button they pressed.
    await expect(save).toBeFocused();
    const saved = await service.get<Regression>(`/api/v1/regressions/${regression.id}`);
    expect(saved.status).toBe("acknowledged");
  });
});
