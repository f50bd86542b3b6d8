// The dashboard against the real service. Tests that read read only the seed studies (no test
// uploads into them); tests that write upload into a suite of their own. Any order works.
import { readFile } from "node:fs/promises";
import type { Locator, Page } from "@playwright/test";
import type { SeriesList } from "../src/api/types";
import {
  cell,
  column,
  drawAllCharts,
  expect,
  parseCsv,
  type Service,
  screenshots,
  seedRun,
  seedRuns,
  tabTo,
  test,
  type UploadBody,
  uniqueSuite,
} from "./fixtures";

/** The series the Explore table lists for a query: those with a latest value, in one page. */
async function measuredSeries(service: Service, query: string) {
  const page = await service.get<SeriesList>(`/api/v1/series?${query}&limit=500`);
  expect(page.next_cursor, "one page holds them all").toBeNull();
  const measured = page.items.filter((s) => s.latest !== null);
  expect(measured.length, `series with a value for ${query}`).toBeGreaterThan(0);
  return measured;
}

const FIO_RUN = "78b4942b-2f4e-493d-84fe-e2814dc4ab9b";

test.describe("studies", () => {
  test("the home page lists every seed study with its runs", async ({ page }) => {
    const runs = await seedRuns();
    const suites = [...new Set(runs.map((r) => r.suite))];
    expect(suites.length).toBeGreaterThan(0);
    await page.goto("/");
    for (const suite of suites) {
      const card = page.locator(`article.card[data-suite="${suite}"]`);
      await expect(card.locator("dd").first()).toHaveText(
        String(runs.filter((r) => r.suite === suite).length),
      );
    }
    await screenshots(page, "studies");
  });
});

test.describe("explore", () => {
  test("language=dart&mode=async shows only Dart async bars, and the URL round-trips", async ({
    page,
    service,
  }) => {
    const dartAsync = await measuredSeries(service, "language=dart&mode=async");
    await page.goto("/explore?language=dart&mode=async");
    await expect(column(page, "language")).toHaveText(dartAsync.map(() => "dart"));
    await expect(column(page, "mode")).toHaveText(dartAsync.map(() => "async"));
    await expect(page.locator('input[name="language"][value="dart"]')).toBeChecked();
    await expect(page.locator('input[name="mode"][value="async"]')).toBeChecked();
    await drawAllCharts(page);
    const legend = page.locator("figure.chart .legend li");
    await expect(legend.first()).toBeVisible();
    await expect(legend.filter({ hasNotText: /^\s*dart · .* · async/ })).toHaveCount(0);
    await expect(page.locator("figure.chart [data-mode]").first()).toBeAttached();
    await expect(page.locator('figure.chart [data-mode]:not([data-mode="async"])')).toHaveCount(0);
    await screenshots(page, "explore");

    const suite = "dart-async-file-writes";
    const inSuite = await measuredSeries(service, `suite=${suite}&language=dart&mode=async`);
    await page.locator(`input[name="suite"][value="${suite}"]`).click();
    await expect(page).toHaveURL(/suite=dart-async-file-writes/);
    await expect(column(page, "suite")).toHaveText(inSuite.map(() => suite));
    await page.goBack();
    await expect(page).toHaveURL((url) => !url.searchParams.has("suite"));
    const params = new URL(page.url()).searchParams;
    expect([params.getAll("language"), params.getAll("mode")]).toEqual([["dart"], ["async"]]);
    await expect(page.locator(`input[name="suite"][value="${suite}"]`)).not.toBeChecked();
    await expect(column(page, "language")).toHaveCount(dartAsync.length);
    await page.goForward();
    await expect(page).toHaveURL(/suite=dart-async-file-writes/);
    await expect(column(page, "suite")).toHaveCount(inSuite.length);
  });

  test("CSV export holds the table's rows in its order", async ({ page, service }) => {
    const latency = await measuredSeries(service, "suite=fio-sync-vs-async&metric=latency");
    await page.goto("/explore?suite=fio-sync-vs-async&metric=latency&sort=value&dir=desc");
    await expect(column(page, "value")).toHaveCount(latency.length);
    const benchmarks = await column(page, "benchmark").allInnerTexts();
    const values = await column(page, "value")
      .locator("data")
      .evaluateAll((cells) => cells.map((c) => Number(c.getAttribute("value"))));
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    const csv = await readFile(await download.path(), "utf8");
    expect(csv).toMatch(/^# filters: suite=fio-sync-vs-async; .*metric=latency/m);
    const [header = [], ...body] = parseCsv(csv);
    expect(body.map((r) => r[header.indexOf("Benchmark")])).toEqual(benchmarks);
    expect(body.map((r) => Number(r[header.indexOf("Latest value")]))).toEqual(values);
    expect(values).toEqual([...values].sort((a, b) => b - a));
  });

  test("filters are keyboard-usable", async ({ page, service }) => {
    const asyncOnly = await measuredSeries(service, "suite=wpf-async-log-reading&mode=async");
    await page.goto("/explore?suite=wpf-async-log-reading");
    // From the top of the page, through the header and the filters before it, to the checkbox.
    await tabTo(page, page.locator('input[name="mode"][value="async"]'));
    await page.keyboard.press("Space");
    await expect(page).toHaveURL(/mode=async/);
    await expect(column(page, "mode")).toHaveText(asyncOnly.map(() => "async"));
  });
});

/** The row of the sync-vs-async table for a benchmark whose params include `param`. */
function modeRow(page: Page, benchmark: string, param: string) {
  return page
    .locator("table.data-table tbody tr")
    .filter({ has: cell(page, "benchmark").getByText(benchmark, { exact: true }) })
    .filter({ has: cell(page, "params").getByText(new RegExp(`(^|, )${param}(,|$)`)) });
}

test.describe("sync vs async", () => {
  test("Dart file-write-tiny, 10,000 writes: async 2.09× slower", async ({ page }) => {
    await page.goto("/modes?suite=dart-async-file-writes");
    const row = modeRow(page, "file-write-tiny", "writes=10000");
    await expect(row).toHaveCount(1);
    await expect(cell(row, "wording")).toHaveText("async 2.09× slower");
    await expect(cell(row, "ratio")).toHaveText("2.087×");
    await drawAllCharts(page);
    await expect(page.getByText("async 2.09× slower", { exact: true }).first()).toBeVisible();
    await screenshots(page, "sync-vs-async");
  });

  test("fio random-read latency (direct=0): async 33.3× slower", async ({ page }) => {
    await page.goto("/modes?suite=fio-sync-vs-async&metric=latency");
    const row = modeRow(page, "fio-randread-4k", "direct=0");
    await expect(row).toHaveCount(1);
    await expect(cell(row, "ratio")).toHaveText("33.31×");
    await expect(cell(row, "wording")).toHaveText("async 33.3× slower");
  });

  test("fio random-read IOPS (direct=0): higher is better, so async is 2.48× slower", async ({ page }) => {
    await page.goto("/modes?suite=fio-sync-vs-async&metric=iops");
    const row = modeRow(page, "fio-randread-4k", "direct=0");
    await expect(row).toHaveCount(1);
    await expect(cell(row, "wording")).toHaveText("async 2.48× slower");
  });
});

test.describe("compare runs", () => {
  test("a copy of the fio run with one value raised 20% shows that one change", async ({ page, service }) => {
    const fio = await seedRun(FIO_RUN);
    const suite = uniqueSuite("compare");
    const baseline: UploadBody = { ...structuredClone(fio), id: crypto.randomUUID(), suite };
    const contender = structuredClone(baseline);
    contender.id = crypto.randomUUID();
    contender.started_at = "2025-03-21T00:00:00Z";
    const [first] = contender.results;
    if (!first) throw new Error("the fio run has no results");
    first.value *= 1.2;
    for (const run of [baseline, contender]) {
      await service.upload(run);
      // A 201 means the run is committed: it is readable at once, without waiting.
      await service.get(`/api/v1/runs/${run.id}`);
    }

    await page.goto(`/runs/${contender.id}`);
    await page.getByRole("link", { name: /Compare with the previous run/ }).click();
    await expect(page).toHaveURL(new RegExp(`baseline=${baseline.id}&contender=${contender.id}`));
    await expect(column(page, "change")).toHaveCount(fio.results.length);
    const changed = page
      .locator("table.data-table tbody tr")
      .filter({ hasNot: cell(page, "change").getByText("0.0%", { exact: true }) });
    await expect(changed).toHaveCount(1);
    await expect(cell(changed, "change")).toHaveText("+20.0%");
    await expect(cell(changed, "verdict")).toHaveText("worse");
    await expect(column(page, "verdict").getByText("within noise", { exact: true })).toHaveCount(
      fio.results.length - 1,
    );
    await expect(page.getByRole("heading", { name: "Only in the baseline" })).toBeVisible();
    await screenshots(page, "compare-runs");
  });
});

/**
 * Two runs of a suite of the test's own for Compare: the fio seed run's results, a change on each,
 * and two results only the baseline has and two only the contender has.
 */
async function comparedRuns(service: Service): Promise<{ url: string; shared: number }> {
  const fio = await seedRun(FIO_RUN);
  const suite = uniqueSuite("compare-sort");
  const [template] = fio.results;
  if (!template) throw new Error("the fio run has no results");
  const only = (...benchmarks: string[]) => benchmarks.map((benchmark) => ({ ...template, benchmark }));
  const baseline: UploadBody = {
    ...structuredClone(fio),
    id: crypto.randomUUID(),
    suite,
    results: [...fio.results, ...only("b-gone-1", "b-gone-2")],
  };
  const contender: UploadBody = {
    ...structuredClone(baseline),
    id: crypto.randomUUID(),
    started_at: "2025-03-21T00:00:00Z",
    results: [
      ...fio.results.map((r, i) => ({ ...r, value: r.value * (1 + i / 10) })),
      ...only("c-new-1", "c-new-2"),
    ],
  };
  for (const run of [baseline, contender]) await service.upload(run);
  return { url: `/compare?baseline=${baseline.id}&contender=${contender.id}`, shared: fio.results.length };
}

/** Compare's three tables, and how to read them. */
function compareTables(page: Page) {
  const shared = page.getByRole("table", { name: /^Results in both runs/ });
  type Table = typeof shared;
  return {
    shared,
    gone: page.getByRole("table", { name: "Only in the baseline" }),
    added: page.getByRole("table", { name: "Only in the contender" }),
    benchmarks: (table: Table) => cell(table, "benchmark").allInnerTexts(),
    changes: (table: Table) =>
      cell(table, "change")
        .locator("data")
        .evaluateAll((cells) => cells.map((c) => Number(c.getAttribute("value")))),
    sortOf: (table: Table, id: string) => table.locator(`th:has(button[data-column="${id}"])`),
  };
}

test.describe("compare runs: each table sorts on its own", () => {
  test("sorting one of the three tables leaves the others and their URL keys alone", async ({
    page,
    service,
  }) => {
    const runs = await comparedRuns(service);
    await page.goto(runs.url);
    const { shared, gone, added, benchmarks, changes, sortOf } = compareTables(page);

    // As they open: the shared results by change, largest first; the others by benchmark.
    await expect(cell(shared, "change")).toHaveCount(runs.shared);
    const byChange = await changes(shared);
    expect(byChange).toEqual([...byChange].sort((a, b) => b - a));
    await expect(cell(gone, "benchmark")).toHaveText(["b-gone-1", "b-gone-2"]);
    await expect(cell(added, "benchmark")).toHaveText(["c-new-1", "c-new-2"]);

    // Sorting the baseline's table turns only it, under its own keys.
    await gone.getByRole("button", { name: "Benchmark" }).click();
    await expect(cell(gone, "benchmark")).toHaveText(["b-gone-2", "b-gone-1"]);
    await expect(sortOf(gone, "benchmark")).toHaveAttribute("aria-sort", "descending");
    let url = new URL(page.url()).searchParams;
    expect([url.get("baseline.sort"), url.get("baseline.dir")]).toEqual(["benchmark", "desc"]);
    expect(url.has("sort") || url.has("contender.sort") || url.has("shared.sort")).toBe(false);
    await expect(cell(added, "benchmark")).toHaveText(["c-new-1", "c-new-2"]);
    await expect(sortOf(added, "benchmark")).toHaveAttribute("aria-sort", "ascending");
    expect(await changes(shared)).toEqual(byChange);
    await expect(sortOf(shared, "change")).toHaveAttribute("aria-sort", "descending");

    // Sorting the shared table by benchmark leaves the two others as they were.
    await shared.getByRole("button", { name: "Benchmark" }).click();
    const sharedBenchmarks = await benchmarks(shared);
    expect(sharedBenchmarks).toEqual(
      [...sharedBenchmarks].sort(new Intl.Collator("en", { numeric: true }).compare),
    );
    url = new URL(page.url()).searchParams;
    expect([url.get("shared.sort"), url.get("shared.dir")]).toEqual(["benchmark", "asc"]);
    await expect(cell(gone, "benchmark")).toHaveText(["b-gone-2", "b-gone-1"]);
    await expect(cell(added, "benchmark")).toHaveText(["c-new-1", "c-new-2"]);

    // The sorts are in the link: opened again, each table is as it was left.
    await page.reload();
    await expect(cell(gone, "benchmark")).toHaveText(["b-gone-2", "b-gone-1"]);
    await expect(cell(added, "benchmark")).toHaveText(["c-new-1", "c-new-2"]);
    expect(await benchmarks(shared)).toEqual(sharedBenchmarks);
  });

  test("an old link's one sort still sorts each table that has its column, under the table's keys", async ({
    page,
    service,
  }) => {
    const runs = await comparedRuns(service);
    const { shared, gone, added, benchmarks, changes, sortOf } = compareTables(page);
    await page.goto(`${runs.url}&sort=benchmark&dir=desc`);
    await expect(cell(gone, "benchmark")).toHaveText(["b-gone-2", "b-gone-1"]);
    await expect(cell(added, "benchmark")).toHaveText(["c-new-2", "c-new-1"]);
    await expect(sortOf(shared, "benchmark")).toHaveAttribute("aria-sort", "descending");
    const sharedBenchmarks = await benchmarks(shared);
    expect(sharedBenchmarks).toEqual(
      [...sharedBenchmarks].sort(new Intl.Collator("en", { numeric: true }).compare).reverse(),
    );
    const url = new URL(page.url()).searchParams;
    expect([url.get("shared.sort"), url.get("baseline.sort"), url.get("contender.dir")]).toEqual([
      "benchmark",
      "benchmark",
      "desc",
    ]);
    expect(url.has("sort") || url.has("dir")).toBe(false);

    // A column only the shared table has: it alone takes the sort; the others keep theirs.
    await page.goto(`${runs.url}&sort=change&dir=asc`);
    await expect(sortOf(shared, "change")).toHaveAttribute("aria-sort", "ascending");
    const byChange = await changes(shared);
    expect(byChange).toEqual([...byChange].sort((a, b) => a - b));
    await expect(cell(gone, "benchmark")).toHaveText(["b-gone-1", "b-gone-2"]);
    await expect(sortOf(gone, "benchmark")).toHaveAttribute("aria-sort", "ascending");
  });
});

/** Two runs a day apart, each with a sync and an async latency: two series of two points. */
function historyRuns(suite: string): UploadBody[] {
  return ["2025-03-20T00:00:00Z", "2025-03-21T00:00:00Z"].map((started_at, day) => ({
    suite,
    started_at,
    hardware: { name: "e2e-history-host" },
    results: (["sync", "async"] as const).map((mode, i) => ({
      benchmark: "read-file",
      language: "c",
      implementation: mode === "sync" ? "read" : "io_uring",
      mode,
      metric: "latency",
      unit: "us",
      value: 100 + 50 * i + 5 * day,
    })),
  }));
}

test.describe("history and runs", () => {
  test("a history chart draws each series over real time; a point opens its run", async ({
    page,
    service,
  }) => {
    const suite = uniqueSuite("history");
    for (const run of historyRuns(suite)) await service.upload(run);
    const series = await measuredSeries(service, `suite=${suite}`);
    expect(series).toHaveLength(2);

    await page.goto(`/history?${series.map((s) => `series=${s.id}`).join("&")}`);
    const chart = page.locator("figure.chart");
    await expect(chart.locator(".recharts-line")).toHaveCount(2);
    await expect(chart.locator(".recharts-line-dot")).toHaveCount(4);
    await expect(page.locator("table.data-table tbody tr")).toHaveCount(4);
    await expect(chart).toHaveAttribute("aria-label", /^Time chart of latency in µs for 2 series/);
    const dates = chart.locator(".recharts-cartesian-axis-tick-value").filter({ hasText: /^\d+ Mar 2025$/ });
    await expect(dates.first()).toBeVisible();
    await screenshots(page, "history");

    await chart.locator(".recharts-line-dot").first().hover();
    await chart.locator(".recharts-active-dot").first().click();
    await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { name: "Results" })).toBeVisible();
  });

  test("a run page lists its results and links its raw upload", async ({ page }) => {
    const fio = await seedRun(FIO_RUN);
    await page.goto(`/runs/${fio.id}`);
    await expect(page.locator("table.data-table tbody tr")).toHaveCount(fio.results.length);
    await expect(page.getByRole("link", { name: /raw upload/ })).toHaveAttribute(
      "href",
      `/api/v1/runs/${fio.id}/upload`,
    );
    await screenshots(page, "run");
  });
});

test.describe("errors", () => {
  test("an unknown run shows the service's error message", async ({ page }) => {
    await page.goto("/runs/00000000-0000-4000-8000-000000000000");
    const alert = page.getByRole("alert");
    await expect(alert).toContainText("404");
    await expect(alert).toContainText("not_found");
  });
});

interface WhiskeredBar {
  size: number;
  implementation: string;
  value: number;
  min: number;
  max: number;
}

/** Uploads the bars as one benchmark's results in a suite of their own; Explore of that suite. */
async function exploreBars(page: Page, service: Service, bars: WhiskeredBar[], unit: "ms" | "count") {
  const suite = uniqueSuite("whiskers");
  await service.upload({
    suite,
    started_at: "2025-04-01T00:00:00Z",
    hardware: { name: "e2e-box" },
    results: bars.map((b) => ({
      benchmark: "whiskered",
      params: { size: b.size },
      language: "go",
      implementation: b.implementation,
      metric: unit === "ms" ? "time_per_op" : "errors",
      unit,
      value: b.value,
      stats: { min: b.min, max: b.max },
    })),
  });
  await page.goto(`/explore?suite=${suite}`);
  const chart = page.locator("figure.chart").first();
  await expect(chart.locator(".recharts-bar-rectangle")).toHaveCount(bars.length);
  return chart;
}

/** Each drawn bar's box, with the whisker and the value label at its height. */
function drawnBars(chart: Locator) {
  return chart.locator(".recharts-surface").evaluate((svg) => {
    const whiskers = [...svg.querySelectorAll(".recharts-errorBar")].map((g) => {
      const span = g.querySelectorAll("line")[1] as SVGLineElement; // the horizontal line
      return {
        y: Number(span.getAttribute("y1")),
        low: Number(span.getAttribute("x1")),
        high: Number(span.getAttribute("x2")),
      };
    });
    const labels = [...svg.querySelectorAll("text.bar-value")].map((t) => ({
      y: Number(t.getAttribute("y")),
      x: Number(t.getAttribute("x")),
      text: t.textContent,
    }));
    return [...svg.querySelectorAll(".recharts-bar-rectangle path")].map((path) => {
      const box = (path as SVGGraphicsElement).getBBox();
      const y = box.y + box.height / 2;
      return {
        left: box.x,
        width: box.width,
        whisker: whiskers.find((w) => Math.abs(w.y - y) < 1),
        label: labels.find((l) => Math.abs(l.y - y) < 1),
      };
    });
  });
}

test.describe("bar charts", () => {
  test("each bar's whisker spans its own min–max, past a group heading, and its value sits past it", async ({
    page,
    service,
  }) => {
    // Two groups (size=1, size=2) of two implementations whose ranges differ, so a whisker drawn
    // from a neighbour's datum (the label's index counts bars, not the group rows) is seen.
    const bars = [
      { size: 1, implementation: "alpha", value: 10, min: 9, max: 12 },
      { size: 1, implementation: "beta", value: 20, min: 5, max: 40 },
      { size: 2, implementation: "alpha", value: 30, min: 29, max: 31 },
      { size: 2, implementation: "beta", value: 15, min: 14, max: 16 },
    ];
    const drawn = await drawnBars(await exploreBars(page, service, bars, "ms"));
    // A linear axis from zero: a bar of `value` is `width` px, so `v` lies at left + width·v/value.
    const widest = Math.max(...drawn.map((d) => d.width));
    const largest = Math.max(...bars.map((b) => b.value));
    for (const d of drawn) {
      const bar = bars.find((b) => Math.abs((d.width / widest) * largest - b.value) < 0.2);
      expect(bar, `a bar of ${d.width} px among ${widest} px is one of the uploaded values`).toBeDefined();
      if (!bar || !d.whisker || !d.label)
        throw new Error(`bar ${bar?.value}: its whisker or label is missing`);
      const at = (v: number) => d.left + (d.width * v) / bar.value;
      expect(d.whisker.low, `bar ${bar.value}: whisker's low end at its min`).toBeCloseTo(at(bar.min), 0);
      expect(d.whisker.high, `bar ${bar.value}: whisker's high end at its max`).toBeCloseTo(at(bar.max), 0);
      expect(d.label.text).toBe(String(bar.value));
      expect(d.label.x, `bar ${bar.value}: its value sits past its whisker`).toBeGreaterThan(at(bar.max));
    }
  });

  test("on a log axis a whisker down to zero ends at the axis, and the others sit by their decades", async ({
    page,
    service,
  }) => {
    const bars = [
      { size: 1, implementation: "alpha", value: 5, min: 0, max: 8 },
      { size: 1, implementation: "beta", value: 2000, min: 1500, max: 2600 },
    ];
    const chart = await exploreBars(page, service, bars, "count");
    await chart.getByRole("checkbox", { name: "Log scale" }).check();
    await expect(chart.locator(".recharts-bar-rectangle")).toHaveCount(bars.length);
    // The axis runs from 1 (the power of ten at or below 5) to 10,000: both bars start at 1, and
    // `v` lies at left + width·log(v)/log(value).
    const drawn = (await drawnBars(chart)).sort((a, b) => a.width - b.width);
    for (const [index, d] of drawn.entries()) {
      const bar = bars[index] as WhiskeredBar;
      if (!d.whisker || !d.label) throw new Error(`bar ${bar.value}: its whisker or label is missing`);
      const at = (v: number) => d.left + (d.width * Math.log(Math.max(v, 1))) / Math.log(bar.value);
      expect(d.whisker.low, `bar ${bar.value}: whisker's low end`).toBeCloseTo(at(bar.min), 0);
      expect(d.whisker.high, `bar ${bar.value}: whisker's high end`).toBeCloseTo(at(bar.max), 0);
      expect(d.label.x).toBeGreaterThan(at(bar.max));
    }
    expect(drawn[0]?.whisker?.low, "the whisker down to 0 ends at the axis").toBeCloseTo(
      drawn[0]?.left ?? 0,
      0,
    );
  });
});
