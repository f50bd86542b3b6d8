// Study pages, leaderboards and sweeps against the real service with the seed studies. Reading
// tests read only the seed studies; the maintainers' tests write into suites of their own.
import type { SeriesList } from "../src/api/types";
import { DESKTOP, expect, PHONE, screenshots, test, uniqueSuite } from "./fixtures";

const finding = (page: import("@playwright/test").Page, text: string | RegExp) =>
  page.locator("li.finding").filter({ has: page.locator(".finding-text", { hasText: text }) });

test.describe("study pages", () => {
  test("each study page states the seed findings in words, with where they come from", async ({ page }) => {
    await page.goto("/studies/dart-async-file-writes");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Thinking Through Async Overhead in Dart",
    );
    await expect(page.getByText("by Diego Crespo")).toBeVisible();
    await expect(page.locator(".study-head .badge-estimated")).toHaveText("date estimated");
    await expect(page.locator(".date-basis")).toContainText("the article gives no date");
    await expect(finding(page, "async 2.09× slower than sync for 10,000 tiny writes")).toBeVisible();

    await page.goto("/studies/fio-sync-vs-async");
    const latency = finding(page, /^posixaio 33\.3× slower than sync/);
    await expect(latency).toContainText("posixaio: 31.4 µs · sync: 943 ns");
    await expect(latency.locator(".finding-note")).toContainText("approximately 30 times");

    await page.goto("/studies/go-vs-dart-rest");
    const go = finding(page, /^Go net\/http 3\.39× faster than Conduit/);
    await expect(go.locator(".finding-interval")).toHaveText(
      "range 3.33×–3.44× allowed by the reported ranges",
    );
    await expect(page.locator("section.machine", { hasText: "do-40vcpu-dedicated" })).toContainText(
      "40 dedicated vCPUs",
    );
    await expect(page.locator("table.study-runs tbody tr")).toHaveCount(3);
    await expect(page.getByRole("list", { name: "Sources" }).getByRole("link")).toHaveAttribute(
      "href",
      "https://nequalsonelifestyle.com/2022/02/12/dart-vs-go-rest-server-performance-study/",
    );
    // Each finding's figure is an image the service draws, loaded as it nears the viewport; a
    // phone gets one drawn at its width (400 px), a desktop the 800 px one.
    const figures = page.locator("li.finding figure.published-figure img");
    await expect(figures).not.toHaveCount(0);
    for (const [size, drawn] of [
      [PHONE, "chart.svg?width=400&height=300"],
      [DESKTOP, "chart.svg"],
    ] as const) {
      await page.setViewportSize(size);
      for (const figure of await figures.all()) {
        await figure.scrollIntoViewIfNeeded();
        await expect
          .poll(() =>
            figure.evaluate((img: HTMLImageElement) =>
              img.complete && img.naturalWidth > 0 ? img.currentSrc.split("/").at(-1) : "not loaded",
            ),
          )
          .toBe(drawn);
      }
    }
    await screenshots(page, "study-go-vs-dart-rest");
  });

  test("the home page titles each study, links its page and shows its first finding", async ({ page }) => {
    await page.goto("/");
    const card = page.locator('article.card[data-suite="dart-async-file-writes"]');
    await expect(card.locator(".headline")).toHaveText("async 2.09× slower than sync for 10,000 tiny writes");
    await card.getByRole("link", { name: "Thinking Through Async Overhead in Dart" }).click();
    await expect(page).toHaveURL(/\/studies\/dart-async-file-writes$/);
    await expect(page.locator("li.finding")).toHaveCount(3);
  });

  test("Go vs Conduit 3.39× is one click from the go-vs-dart-rest study", async ({ page }) => {
    await page.goto("/studies/go-vs-dart-rest");
    await finding(page, /^Go net\/http 3\.39× faster than Conduit/)
      .getByRole("link", { name: "Leaderboard" })
      .click();
    const rows = page.locator("table.leaderboard tbody tr");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0).locator('[data-column="implementation"]')).toHaveText("go · net/http");
    await expect(rows.nth(0).locator('[data-column="factor"]')).toHaveText("best");
    await expect(rows.nth(1).locator('[data-column="implementation"]')).toContainText(
      "dart · conduit approx.",
    );
    await expect(rows.nth(1).locator('[data-column="factor"]')).toHaveText("3.39× slower");
    await page.getByLabel("Compare with").selectOption({ label: "dart · conduit (approx.)" });
    await expect(page.locator("table.leaderboard th").last()).toHaveText("vs dart · conduit");
    await expect(rows.nth(0).locator('[data-column="factor"]')).toHaveText("3.39× faster");
    await screenshots(page, "leaderboard-go-vs-conduit");
  });
});

test.describe("leaderboards and sweeps", () => {
  test("keeping approx apart splits Go from Conduit; merging cores ranks all of Go's runs", async ({
    page,
  }) => {
    await page.goto("/leaderboard?suite=go-vs-dart-rest&benchmark=rest-root-route&metric=throughput");
    const merge = page.getByRole("group", { name: "Merge across" });
    // The URL holds the choice: a box changes once the router has moved, hence click, then expect.
    const toggle = async (name: RegExp, checked: boolean) => {
      await merge.getByLabel(name).click();
      await expect(merge.getByLabel(name)).toBeChecked({ checked });
    };
    await toggle(/approx/, false);
    const groups = page.getByLabel("Group").locator("option");
    await expect(groups).toHaveCount(4);
    await toggle(/approx/, true);
    await toggle(/cores/, true);
    await toggle(/hardware/, true);
    await expect(page.getByLabel("Group")).toHaveCount(0);
    await expect(page.locator("table.leaderboard tbody tr")).toHaveCount(5);
    await expect(page.locator("table.leaderboard tbody tr").first()).toContainText("cores=40");
  });

  test("a sweep draws one line per mode against the number of writes", async ({ page }) => {
    await page.goto("/leaderboard?suite=dart-async-file-writes&benchmark=file-write-tiny&metric=time_per_op");
    const chart = page.getByRole("figure", { name: /against writes, 2 lines/ });
    await chart.scrollIntoViewIfNeeded();
    await expect(chart.locator(".recharts-line")).toHaveCount(2);
    await expect(chart.locator(".recharts-line-dots circle")).toHaveCount(6);
    await expect(chart.locator(".legend li")).toHaveText([
      "dart · dart:io · async · sequential",
      "dart · dart:io · sync · sequential",
    ]);
    // The same points as a table, for a reader who does not see the chart.
    await chart.getByText("The sweep as a table").click();
    const table = chart.getByRole("table", { name: /against writes, one column per line/ });
    await expect(table.locator("thead th")).toHaveText([
      "writes",
      "dart · dart:io · async · sequential",
      "dart · dart:io · sync · sequential",
    ]);
    await expect(table.locator("tbody tr")).toHaveCount(3);
    await expect(table.locator("tbody td")).toHaveCount(6);
    await expect(table.locator("tbody td", { hasText: "—" })).toHaveCount(0);
    await chart.getByText("The sweep as a table").click();
    await screenshots(page, "sweep-dart-writes");
  });
});

test.describe("maintaining a study", () => {
  test("a maintainer sets the title and pins a finding through the page's form", async ({
    page,
    service,
  }) => {
    const suite = uniqueSuite("study");
    const result = {
      benchmark: "file-write-tiny",
      params: { writes: 100 },
      language: "dart",
      implementation: "dart:io",
      metric: "time_per_op",
      unit: "us" as const,
    };
    await service.upload({
      suite,
      name: "Tiny writes",
      started_at: "2025-03-20T12:00:00Z",
      hardware: { name: "e2e-machine" },
      results: [
        { ...result, mode: "sync", value: 50 },
        { ...result, mode: "async", value: 100 },
      ],
    });
    await service.upload({
      suite,
      name: "Tiny writes, a year on",
      started_at: "2026-03-20T12:00:00Z",
      hardware: { name: "e2e-machine" },
      results: [{ ...result, mode: "async", value: 150 }],
    });
    await page.goto(`/studies/${suite}`);
    await expect(page.getByText("No findings are pinned yet.")).toBeVisible();
    await page.getByText("Maintain this study").click();
    await page.getByLabel("Maintainer token").fill(service.maintainToken);
    await page.getByRole("button", { name: "Use token" }).click();
    const details = page.getByRole("form", { name: "Study details" });
    await details.getByLabel("Title").fill("Tiny writes, both ways");
    await details.getByLabel(/Sources/).fill("not a link");
    await details.getByRole("button", { name: "Save details" }).click();
    await expect(details.getByRole("alert")).toContainText("links[0].url");
    await details.getByLabel(/Sources/).fill("Article | https://example.org/post");
    await details.getByRole("button", { name: "Save details" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tiny writes, both ways");
    await expect(page.getByRole("link", { name: "Article" })).toHaveAttribute(
      "href",
      "https://example.org/post",
    );

    const pin = page.getByRole("group", { name: /Pin a finding/ });
    await pin.getByLabel("Numerator's run").selectOption({ label: "Tiny writes" });
    await pin.getByLabel("Denominator's run").selectOption({ label: "Tiny writes" });
    await pin.getByLabel("Numerator", { exact: true }).selectOption({
      label: "file-write-tiny (writes=100) · dart · dart:io · async · time_per_op = 100 µs",
    });
    await pin.getByLabel("Denominator", { exact: true }).selectOption({
      label: "file-write-tiny (writes=100) · dart · dart:io · sync · time_per_op = 50 µs",
    });
    await pin.getByLabel("Its label").first().fill("async");
    await pin.getByLabel("Its label").last().fill("sync");
    await pin.getByLabel("End of the sentence").fill("for 100 tiny writes");
    await pin.getByRole("button", { name: "Pin finding" }).click();
    await expect(finding(page, "async 2× slower than sync for 100 tiny writes")).toBeVisible();

    // The two sides may come from different runs.
    await pin.getByLabel("Numerator's run").selectOption({ label: "Tiny writes, a year on" });
    await pin.getByLabel("Numerator", { exact: true }).selectOption({
      label: "file-write-tiny (writes=100) · dart · dart:io · async · time_per_op = 150 µs",
    });
    await pin.getByLabel("Denominator", { exact: true }).selectOption({
      label: "file-write-tiny (writes=100) · dart · dart:io · async · time_per_op = 100 µs",
    });
    await pin.getByLabel("Its label").first().fill("async in 2026");
    await pin.getByLabel("Its label").last().fill("in 2025");
    await pin.getByLabel("End of the sentence").fill("");
    await pin.getByRole("button", { name: "Pin finding" }).click();
    await expect(page.locator("li.finding .finding-text")).toHaveText([
      "async 2× slower than sync for 100 tiny writes",
      "async in 2026 1.5× slower than in 2025",
    ]);
    await page.goto("/");
    await expect(page.locator(`article.card[data-suite="${suite}"] .headline`)).toHaveText(
      "async 2× slower than sync for 100 tiny writes",
    );
  });
  test("moving a finding with Up and Down keeps the keyboard on that finding, also at the ends", async ({
    page,
    service,
    request,
  }) => {
    const suite = uniqueSuite("study");
    const run = crypto.randomUUID();
    const result = {
      benchmark: "file-write-tiny",
      language: "dart",
      implementation: "dart:io",
      metric: "time_per_op",
      unit: "us" as const,
    };
    await service.upload({
      id: run,
      suite,
      started_at: "2025-03-20T12:00:00Z",
      hardware: { name: "e2e-machine" },
      results: [
        { ...result, mode: "sync", value: 50 },
        { ...result, mode: "async", value: 100 },
      ],
    });
    const { items } = await service.get<SeriesList>(`/api/v1/series?suite=${suite}`);
    const side = (mode: string, label: string) => ({
      run_id: run,
      series_id: items.find((s) => s.mode === mode)?.id,
      label,
    });
    const pinned = await request.put(`/api/v1/suites/${suite}/findings`, {
      data: {
        findings: ["A", "B", "C"].map((name) => ({
          numerator: side("async", "async"),
          denominator: side("sync", "sync"),
          context: `in case ${name}`,
        })),
      },
      headers: { authorization: `Bearer ${service.maintainToken}` },
    });
    expect(pinned.status(), await pinned.text()).toBe(200);

    await page.goto(`/studies/${suite}`);
    await page.getByText("Maintain this study").click();
    await page.getByLabel("Maintainer token").fill(service.maintainToken);
    await page.getByRole("button", { name: "Use token" }).click();
    const editor = page.getByRole("region", { name: "Pinned findings" });
    const order = editor.locator("ol.finding-editor > li > span");
    const button = (direction: "up" | "down", name: string) =>
      editor.getByRole("button", { name: `Move ${direction}: async 2× slower than sync in case ${name}` });
    await expect(order).toHaveText([/case A$/, /case B$/, /case C$/]);

    // Enter on a finding's Down: it moves, and the focus stays on its Down button.
    await button("down", "A").focus();
    await page.keyboard.press("Enter");
    await expect(order).toHaveText([/case B$/, /case A$/, /case C$/]);
    await expect(button("down", "A")).toBeFocused();
    // At the bottom its Down is disabled: the focus goes to its Up, not to the page.
    await page.keyboard.press("Enter");
    await expect(order).toHaveText([/case B$/, /case C$/, /case A$/]);
    await expect(button("down", "A")).toBeDisabled();
    await expect(button("up", "A")).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(order).toHaveText([/case B$/, /case A$/, /case C$/]);
    await expect(button("up", "A")).toBeFocused();
    // And at the top, from Up to its Down.
    await page.keyboard.press("Enter");
    await expect(order).toHaveText([/case A$/, /case B$/, /case C$/]);
    await expect(button("up", "A")).toBeDisabled();
    await expect(button("down", "A")).toBeFocused();
  });
});
