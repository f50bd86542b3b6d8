// Every page, scanned by axe-core at the desktop and the phone width: a serious or critical
// violation fails. The pages read the seed studies, plus one detected step for a regression's page,
// its alert group's page and its history with a maintainer's curation panel; each page is opened once and scanned at both widths, and its disclosures (forms, chart tables)
// are opened first so what they hide is scanned too. Also: moving between pages by keyboard.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import type { SeriesList } from "../src/api/types";
import { column, DESKTOP, expect, tabTo, test, WIDTHS } from "./fixtures";
import { detectedStep } from "./steps";

const FIO_RUN = "78b4942b-2f4e-493d-84fe-e2814dc4ab9b";

/** Opens every <details>, then scans the page at each width; fails on serious or critical findings. */
async function expectAccessible(page: Page, name: string) {
  await page.locator("details").evaluateAll((all) => {
    for (const details of all) (details as HTMLDetailsElement).open = true;
  });
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    const { violations } = await new AxeBuilder({ page }).analyze();
    const blocking = violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    expect(blocking, `${name} at ${size.width} px`).toEqual([]);
  }
  await page.setViewportSize(DESKTOP);
}

/** The seed pages: their address and what shows once they are drawn. */
const PAGES: { name: string; path: string; ready: (page: Page) => Promise<void> }[] = [
  {
    name: "studies",
    path: "/",
    ready: (page) => expect(page.locator("article.card").first()).toBeVisible(),
  },
  {
    name: "a study",
    path: "/studies/dart-async-file-writes",
    ready: (page) => expect(page.locator("li.finding").first()).toBeVisible(),
  },
  {
    name: "explore",
    path: "/explore?suite=dart-async-file-writes",
    ready: (page) => expect(page.locator("figure.chart .recharts-surface").first()).toBeVisible(),
  },
  {
    name: "sync vs async",
    path: "/modes?suite=dart-async-file-writes",
    ready: (page) => expect(column(page, "ratio").first()).toBeVisible(),
  },
  {
    name: "leaderboard with a sweep",
    path: "/leaderboard?suite=dart-async-file-writes&benchmark=file-write-tiny&metric=time_per_op",
    ready: (page) => expect(page.locator("table.leaderboard tbody tr").first()).toBeVisible(),
  },
  { name: "runs", path: "/runs", ready: (page) => expect(column(page, "started").first()).toBeVisible() },
  {
    name: "a run",
    path: `/runs/${FIO_RUN}`,
    ready: (page) => expect(column(page, "value").first()).toBeVisible(),
  },
  {
    name: "compare runs, nothing chosen",
    path: "/compare",
    ready: (page) => expect(page.getByText("Choose a baseline and a contender run")).toBeVisible(),
  },
  {
    name: "regressions",
    path: "/regressions",
    ready: (page) => expect(page.getByRole("heading", { name: "Regressions", level: 1 })).toBeVisible(),
  },
  {
    name: "tokens",
    path: "/tokens",
    ready: (page) => expect(page.getByRole("heading", { name: "API tokens", level: 1 })).toBeVisible(),
  },
  {
    name: "notifications",
    path: "/suites/dart-async-file-writes/notifications",
    ready: (page) => expect(page.getByRole("heading", { name: /^Notifications/, level: 1 })).toBeVisible(),
  },
  {
    name: "not found",
    path: "/no-such-page",
    ready: (page) => expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible(),
  },
];

test.describe("accessibility scan at 1400 and 390 px", () => {
  for (const { name, path, ready } of PAGES) {
    test(`${name}: no serious or critical violation`, async ({ page }) => {
      await page.goto(path);
      await ready(page);
      await expectAccessible(page, name);
    });
  }

  test("history, compare, a regression's and an alert group's page, with data: no serious or critical violation", async ({
    page,
    service,
  }) => {
    const regression = await detectedStep(service);
    await page.goto(`/regressions/${regression.id}`);
    await expect(page.locator("figure.chart .recharts-surface").first()).toBeVisible();
    await expectAccessible(page, "a regression");

    const compare = page.getByRole("link", { name: "Compare with the previous run" });
    await compare.click();
    await expect(column(page, "change").first()).toBeVisible();
    await expectAccessible(page, "compare runs");

    // The group of the step's commit: its page lists the change with the group's triage form.
    await page.goto(`/regressions/groups/${regression.group_id}`);
    await expect(page.locator(`li[data-group="${regression.group_id}"] li[data-regression]`)).toHaveCount(1);
    await expectAccessible(page, "an alert group");

    // The step's history as a maintainer sees it: the curation panel, with a mark on record.
    await page.goto(`/history?series=${regression.series.id}`);
    await page.locator(".annotation-form summary").click();
    await page.getByLabel("Maintainer token").fill(service.maintainToken);
    await page.getByRole("button", { name: "Use token" }).click();
    const panel = page.getByRole("region", { name: `Baseline curation of series ${regression.series.id}` });
    await panel.getByLabel("Run").selectOption({ index: 3 });
    await panel.getByRole("button", { name: "Mark as outlier" }).click();
    await expect(panel.locator("li[data-outlier-run]")).toHaveCount(1);
    await expectAccessible(page, "history with the curation panel");

    const { items } = await service.get<SeriesList>(`/api/v1/series?suite=fio-sync-vs-async&limit=3`);
    await page.goto(`/history?${items.map((s) => `series=${s.id}`).join("&")}`);
    await expect(page.locator("figure.chart .recharts-surface").first()).toBeVisible();
    await expectAccessible(page, "history");
  });
});

test.describe("by keyboard", () => {
  test("Explore: from the top of the page to a bar's history, with no mouse", async ({ page }) => {
    await page.goto("/explore?suite=dart-async-file-writes");
    await expect(page.locator("figure.chart .recharts-surface").first()).toBeVisible();
    // Past the filters and the charts: the link that jumps to the table beside them.
    await tabTo(page, page.getByRole("link", { name: "Jump to the table" }), 80);
    await page.keyboard.press("Enter");
    const first = column(page, "history").getByRole("link").first();
    const presses = await tabTo(page, first, 40);
    expect(presses, "the jump skips the charts' controls").toBeLessThan(20);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/history\?series=\d+$/);
    await expect(page.locator("figure.chart .recharts-line")).toHaveCount(1);
    await expect(page.getByRole("heading", { name: "History", level: 1 })).toBeFocused();
    await expect(page.getByTestId("page-announcement")).toHaveText("History page");
  });

  test("the main menu moves the focus to each new page's heading; filters leave it in place", async ({
    page,
  }) => {
    await page.goto("/");
    await expect(page.locator("article.card").first()).toBeVisible();
    const nav = page.getByRole("navigation", { name: "Main" });
    await tabTo(page, nav.getByRole("link", { name: "Runs", exact: true }));
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Runs/);
    await expect(page.getByTestId("page-announcement")).toHaveText(/^Runs.* page$/);

    // A filter changes the query, not the page: the focus stays on the box just ticked.
    await page.goto("/explore");
    // Its name is the value and its count as words ("async, 12 series"), not "async12".
    const box = page.getByRole("checkbox", { name: /^async, \d+ series$/ });
    await tabTo(page, box);
    await page.keyboard.press("Space");
    await expect(page).toHaveURL(/mode=async/);
    await expect(box).toBeFocused();
  });
});
