// Explore on a real-sized suite (one run of 300 benchmarks × 10 sizes) and the pinned value
// columns. Times are the bench's business (npm run bench -- big-suite); this checks the budget
// of elements and that the page works at that size.
import type { Page } from "@playwright/test";
import { EXPLORE_PAGE } from "../src/features/explore/page";
import { BENCHMARKS, bigSuiteRun, SIZES } from "./bigSuite.mjs";
import { column, expect, screenshots, test, uniqueSuite } from "./fixtures";

const ELEMENT_BUDGET = 20_000;

const elementCount = (page: Page) => page.evaluate(() => document.getElementsByTagName("*").length);

test.describe("a suite of 3,000 results", () => {
  test("Explore draws small multiples and a virtual table within the element budget", async ({
    page,
    service,
  }) => {
    const suite = uniqueSuite("big");
    await service.upload(bigSuiteRun(suite));
    // Explore asks for one page of series (in upload order, so a page's series span many of
    // the suite's benchmarks); the next comes when the reader asks for it.
    const results = EXPLORE_PAGE;
    expect(BENCHMARKS * SIZES.length).toBeGreaterThan(EXPLORE_PAGE);
    await page.goto(`/explore?suite=${suite}`);
    await expect(page.locator("figure.chart .recharts-bar-rectangle").first()).toBeVisible();
    const summary = page.getByText(new RegExp(`^${results} series in \\d+ charts`));
    await expect(summary).toBeVisible();
    const charts = Number((await summary.textContent())?.match(/in (\d+) charts/)?.[1]);
    expect(charts).toBeLessThanOrEqual(BENCHMARKS);
    await expect(page.locator("figure.chart")).toHaveCount(charts);
    // The table is drawn in the queue's turn after every chart that was near the viewport when the
    // page opened (DrawLater), so once it is there those charts are all drawn and no more are coming.
    await expect(page.locator("table.data-table")).toHaveAttribute("aria-rowcount", String(results + 1));
    // Each chart has its own axis, and only those near the viewport are drawn: the first screen's,
    // not the last chart's, far below.
    const drawn = await page.locator("figure.chart .recharts-surface").count();
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThan(40);
    await expect(page.locator("figure.chart").first().locator(".recharts-surface")).toHaveCount(1);
    await expect(page.locator("figure.chart").last().locator(".recharts-surface")).toHaveCount(0);
    expect(await column(page, "value").count()).toBeLessThanOrEqual(results); // one page at most
    expect(await elementCount(page)).toBeLessThanOrEqual(ELEMENT_BUDGET);

    // The table's last row is reached by scrolling; the page stays within the budget on the way.
    await page.locator("table.data-table").scrollIntoViewIfNeeded();
    await expect(column(page, "benchmark").first()).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const lastRow = page.locator(`table.data-table tbody tr[aria-rowindex="${results + 1}"]`);
    await expect(lastRow).toBeVisible();
    expect(await elementCount(page)).toBeLessThanOrEqual(ELEMENT_BUDGET);

    // The next page joins the first.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole("button", { name: `Load ${EXPLORE_PAGE} more series` }).click();
    await expect(page.getByText(new RegExp(`^${2 * results} series in \\d+ charts`))).toBeVisible();

    // A long facet is searched: ticking one benchmark leaves its ten rows.
    await page.evaluate(() => window.scrollTo(0, 0));
    const facet = page.locator('fieldset[data-dimension="benchmark"]');
    await facet.getByRole("searchbox").fill("case-042");
    await expect(facet.locator('input[type="checkbox"]')).toHaveCount(1);
    await facet.locator('input[type="checkbox"]').click();
    await expect(page).toHaveURL(/benchmark=/);
    await expect(column(page, "value")).toHaveCount(SIZES.length);
    await expect(page.locator("figure.chart")).toHaveCount(1);
  });

  test("Explore scrolls top to bottom a screen at a time without an error", async ({ page, service }) => {
    const suite = uniqueSuite("big-scroll");
    await service.upload(bigSuiteRun(suite));
    await page.goto(`/explore?suite=${suite}`);
    await expect(page.locator("table.data-table tbody tr").first()).toBeAttached();
    // As a reader scrolls, charts and virtual rows come and go at every step, which a jump to the
    // end skips; a render loop between them and the page's layout (React error #185) would fail
    // the test through the page fixture.
    await page.evaluate(async () => {
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      for (let y = 0; y < document.documentElement.scrollHeight; y += 800) {
        window.scrollTo(0, y);
        await frame();
        await frame();
      }
      window.scrollTo(0, document.documentElement.scrollHeight);
    });
    await expect(
      page.locator(`table.data-table tbody tr[aria-rowindex="${EXPLORE_PAGE + 1}"]`),
    ).toBeVisible();
    // Far from the charts, they were dropped; back at the top they are drawn again.
    await expect(page.locator("figure.chart .recharts-surface")).toHaveCount(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(page.locator("figure.chart .recharts-bar-rectangle").first()).toBeVisible();
  });
});

test.describe("a tall chart", () => {
  test("is drawn in pieces that line up as one chart, with one value axis", async ({ page, service }) => {
    // One benchmark at 30 sizes, sync and async: 30 headings and 60 bars, 90 lines (pieces of 40).
    const suite = uniqueSuite("tall");
    const sizes = Array.from({ length: 30 }, (_, i) => i + 1);
    await service.upload({
      suite,
      started_at: "2026-11-01T02:00:00Z",
      hardware: { name: "ci-runner-8c" },
      results: sizes.flatMap((size) =>
        (["sync", "async"] as const).map((mode) => ({
          benchmark: "tall",
          params: { size },
          language: "dart",
          implementation: "dart:io",
          mode,
          metric: "time_per_op",
          unit: "us",
          value: mode === "sync" ? 100 : 10 * size,
        })),
      ),
    });
    await page.goto(`/explore?suite=${suite}`);
    const chart = page.locator("figure.chart");
    await expect(chart.locator(".recharts-surface")).toHaveCount(3);
    await expect(chart.locator(".recharts-bar-rectangle")).toHaveCount(60);
    await expect(chart.locator(".recharts-xAxis")).toHaveCount(1);
    // Every line keeps its place in the whole chart: the bars' middles, across the cuts, are
    // where the first two bars' spacing puts them (bar k of group g is line 3g + k + 1).
    const middles = await chart
      .locator(".recharts-bar-rectangle path")
      .evaluateAll((paths) => paths.map((p) => p.getBoundingClientRect()).map((b) => b.top + b.height / 2));
    const [first = 0, second = 0] = middles;
    const line = second - first;
    const misplaced = middles.map((y, i) => Math.abs(y - (first + (3 * Math.floor(i / 2) + (i % 2)) * line)));
    expect(Math.max(...misplaced)).toBeLessThan(0.5);
    // One value axis: the grid's lines are at the same places in every piece.
    const grids = await chart
      .locator(".recharts-surface")
      .evaluateAll((svgs) =>
        svgs.map((svg) =>
          [...svg.querySelectorAll(".recharts-cartesian-grid-vertical line")].map((l) =>
            l.getAttribute("x1"),
          ),
        ),
      );
    expect(grids[0]?.length).toBeGreaterThan(1);
    expect(grids[1]).toEqual(grids[0]);
    expect(grids[2]).toEqual(grids[0]);
    // A bar of the last piece opens its history, as any bar does.
    await chart.locator(".recharts-bar-rectangle").last().click();
    await expect(page).toHaveURL(/\/history\?series=\d+$/);
  });
});

/** The pinned columns' cells of the table are inside the viewport and not covered. */
async function expectInView(page: Page, ids: string[]) {
  for (const id of ids) {
    const header = page.locator(`table.data-table thead th:has(button[data-column="${id}"])`);
    const box = await header.boundingBox();
    expect(box, `column ${id} is laid out`).not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? 0), `column ${id} ends inside 1400 px`).toBeLessThanOrEqual(1400);
    expect(box?.x ?? -1, `column ${id} starts inside the screen`).toBeGreaterThanOrEqual(0);
  }
}

/**
 * Scrolls the table sideways to its end: the pinned columns stay where they were. On a 900 px
 * screen, where columns are still pinned (not on a phone), so that every table here is wider
 * than its box and the check cannot pass by having nothing to scroll.
 */
async function expectPinned(page: Page, ids: string[]) {
  await page.setViewportSize({ width: 900, height: 900 });
  const scroller = page.locator(".table-scroll").last();
  const before = await Promise.all(
    ids.map((id) =>
      page.locator(`table.data-table thead th:has(button[data-column="${id}"])`).last().boundingBox(),
    ),
  );
  const scrolled = await scroller.evaluate((el) => {
    el.scrollLeft = el.scrollWidth;
    return el.scrollLeft;
  });
  const after = await Promise.all(
    ids.map((id) =>
      page.locator(`table.data-table thead th:has(button[data-column="${id}"])`).last().boundingBox(),
    ),
  );
  // A table narrower than its box would not scroll, and prove nothing: these must be wider.
  expect(scrolled, "the table scrolls sideways").toBeGreaterThan(0);
  expect(after.map((b) => b?.x)).toEqual(before.map((b) => b?.x));
  await page.setViewportSize({ width: 1400, height: 900 });
}

test.describe("value columns stay in view at 1400 px", () => {
  test("Explore: latest value and better beside the benchmark", async ({ page }) => {
    await page.goto("/explore");
    await expect(column(page, "value").first()).toBeVisible();
    await expectInView(page, ["benchmark", "value", "direction"]);
    await expectPinned(page, ["benchmark", "value", "direction"]);
  });

  test("Sync vs async: the ratio and its reading beside the benchmark", async ({ page }) => {
    await page.goto("/modes");
    await expect(column(page, "ratio").first()).toBeVisible();
    await expectInView(page, ["benchmark", "ratio", "wording"]);
    await expectPinned(page, ["benchmark", "ratio", "wording"]);
  });

  test("the runs list: when each run started and how many results it holds", async ({ page }) => {
    await page.goto("/runs");
    await expect(column(page, "results").first()).toBeVisible();
    await expectInView(page, ["started", "results"]);
    await screenshots(page, "runs");
  });

  test("a run's results: value and better beside the benchmark", async ({ page }) => {
    await page.goto("/runs/78b4942b-2f4e-493d-84fe-e2814dc4ab9b");
    await expect(column(page, "value").first()).toBeVisible();
    await expectInView(page, ["benchmark", "value", "direction"]);
    await expectPinned(page, ["benchmark", "value", "direction"]);
  });
});
