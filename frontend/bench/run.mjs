// Front-end speed: first-load JS (bytes transferred), time to the first Explore chart with the
// seed data, Explore on a real-sized suite (3,000 results: first chart, longest main-thread task,
// element count, applying a filter, scrolling), time to draw a 100,000-point history, and Explore
// on a million series (bench/wide_speed.py's data set). Prints figures; asserts nothing about timing.
//   npm run build && npm run bench              every case
//   npm run bench -- big-suite                   only the named cases (js, explore, big-suite, history, wide)
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { bigSuiteRun } from "../e2e/bigSuite.mjs";
import { api, FRONTEND, launchBrowser, REPO, startService } from "../e2e/harness.mjs";

const run = promisify(execFile);
const RUNS = 5;
const HISTORY_POINTS = 100_000;
const DATA_DIR = path.join(REPO, ".data", "bench", "frontend");

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** JS fetched by a cold load of `pathname` once `ready` is on the page: bytes as transferred (the
 * service's precompressed files, as Chromium takes them) and raw. */
async function firstLoadJs(browser, base, pathname, ready) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const scripts = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script")
      scripts.push(Promise.all([response.body(), response.request().sizes()]));
  });
  await page.goto(`${base}${pathname}`);
  await page.locator(ready).first().waitFor({ state: "attached" });
  const loaded = await Promise.all(scripts);
  await context.close();
  return {
    files: loaded.length,
    raw: loaded.reduce((n, [body]) => n + body.length, 0),
    transferred: loaded.reduce((n, [, sizes]) => n + sizes.responseBodySize, 0),
  };
}

/** A picture of what was measured, to look at: bench/out/NAME.png. */
async function picture(browser, url, name) {
  await mkdir(path.join(FRONTEND, "bench", "out"), { recursive: true });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(url);
  await page.locator("figure.chart").first().waitFor();
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(FRONTEND, "bench", "out", `${name}.png`) });
  await page.close();
}

/** Milliseconds from navigation start until `selector` is in the page, over cold loads. */
async function timeToSelector(browser, url, selector) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: "commit" });
    await page.waitForFunction((s) => document.querySelector(s) !== null, selector, {
      polling: "raf",
      timeout: 30_000,
    });
    times.push(await page.evaluate(() => performance.now()));
    await context.close();
  }
  return times;
}

async function makeLongHistory(service) {
  const upload = {
    suite: "frontend-bench-history",
    name: "frontend bench: one series, many runs",
    started_at: "2014-01-01T00:00:00Z",
    hardware: { name: "frontend-bench-host" },
    results: [
      {
        benchmark: "long-history",
        language: "dart",
        implementation: "dart:io",
        mode: "async",
        metric: "time_per_op",
        unit: "us",
        value: 120,
        stats: { min: 110, max: 135 },
      },
    ],
  };
  const created = await api(service, "/api/v1/runs", { method: "POST", body: JSON.stringify(upload) });
  const python = path.join(REPO, ".venv", "bin", "python");
  const started = performance.now();
  await run(
    python,
    [path.join(FRONTEND, "bench", "clone_runs.py"), DATA_DIR, created.id, String(HISTORY_POINTS - 1)],
    {
      env: { ...process.env, BENCHBOARD_DATA_DIR: DATA_DIR },
      timeout: 600_000,
    },
  );
  const { items } = await api(service, "/api/v1/series?suite=frontend-bench-history");
  return {
    seriesId: items[0].id,
    seconds: (performance.now() - started) / 1000,
    runCount: items[0].run_count,
  };
}

const FIRST_BAR = "figure.chart .recharts-bar-rectangle";

/**
 * Collects the page's long tasks (over 50 ms) from its start, for `longestTask`, and its long
 * animation frames, for `longestFrame`: a frame's style and layout after a big DOM change is
 * rendering work that Chromium does not always report as a long task.
 */
async function watchLongTasks(page) {
  await page.addInitScript(() => {
    window.__longTasks = [];
    window.__longFrames = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
    }).observe({ type: "longtask", buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longFrames.push(entry.duration);
    }).observe({ type: "long-animation-frame", buffered: true });
  });
}

const longestTask = (page) => page.evaluate(() => Math.max(0, ...window.__longTasks));
const longestFrame = (page) => page.evaluate(() => Math.max(0, ...window.__longFrames));
const elementCount = (page) => page.evaluate(() => document.getElementsByTagName("*").length);

/** One warm load of Explore on the big suite: first chart, settled page, longest task, elements. */
async function bigSuiteLoad(page, url) {
  await page.goto(url, { waitUntil: "commit" });
  await page.waitForFunction((s) => document.querySelector(s) !== null, FIRST_BAR, {
    polling: "raf",
    timeout: 60_000,
  });
  const firstChart = await page.evaluate(() => performance.now());
  await page.locator("table.data-table tbody tr").first().waitFor();
  await page.waitForTimeout(1000);
  return {
    firstChart,
    longest: await longestTask(page),
    longestFrame: await longestFrame(page),
    elements: await elementCount(page),
  };
}

/** Explore at 1400 px on one run of 300 benchmarks × 10 sizes, warm (assets cached, service warmed). */
async function bigSuite(browser, service) {
  const suite = "frontend-bench-big-suite";
  const run = bigSuiteRun(suite);
  await api(service, "/api/v1/runs", { method: "POST", body: JSON.stringify(run) });
  const url = `${service.base}/explore?suite=${suite}`;
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await watchLongTasks(page);
  await bigSuiteLoad(page, url); // warms the browser cache and the service
  const loads = [];
  for (let i = 0; i < RUNS; i++) loads.push(await bigSuiteLoad(page, url));
  console.log(
    `Explore, big suite (${run.results.length.toLocaleString("en-US")} results, 1400 px, ${RUNS} warm loads): first chart at median ${median(loads.map((l) => l.firstChart)).toFixed(0)} ms (max ${Math.max(...loads.map((l) => l.firstChart)).toFixed(0)}); longest main-thread task median ${median(loads.map((l) => l.longest)).toFixed(0)} ms (max ${Math.max(...loads.map((l) => l.longest)).toFixed(0)}); ${Math.max(...loads.map((l) => l.elements)).toLocaleString("en-US")} elements at most`,
  );

  // Applying one filter: search the benchmark facet and tick one benchmark.
  await page.evaluate(() => {
    window.__longTasks = [];
  });
  const facet = page.locator('fieldset[data-dimension="benchmark"]');
  await facet.getByRole("searchbox").fill("case-007");
  const started = await page.evaluate(() => performance.now());
  await facet.locator("input[type=checkbox]").first().click();
  await page.locator("table.data-table tbody tr").nth(9).waitFor();
  await page.waitForFunction(() => document.querySelectorAll("table.data-table tbody tr").length === 10);
  const applied = (await page.evaluate(() => performance.now())) - started;
  console.log(
    `Explore, big suite: one benchmark filter applied in ${applied.toFixed(0)} ms (longest task ${(await longestTask(page)).toFixed(0)} ms)`,
  );

  // Scrolling the unfiltered page from top to bottom, a screen at a time.
  await bigSuiteLoad(page, url);
  await page.evaluate(() => {
    window.__longTasks = [];
  });
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y < height; y += 800) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForTimeout(50);
  }
  await page.waitForTimeout(500);
  console.log(
    `Explore, big suite: scrolled ${height.toLocaleString("en-US")} px top to bottom; longest task ${(await longestTask(page)).toFixed(0)} ms, ${(await elementCount(page)).toLocaleString("en-US")} elements at the end`,
  );
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await mkdir(path.join(FRONTEND, "bench", "out"), { recursive: true });
  await page.screenshot({ path: path.join(FRONTEND, "bench", "out", "explore-big-suite.png") });
  await context.close();
}

async function seedExplore(browser, service) {
  const exploreTimes = await timeToSelector(browser, `${service.base}/explore`, FIRST_BAR);
  console.log(
    `Explore, seed data (${RUNS} cold loads): first chart drawn at median ${median(exploreTimes).toFixed(0)} ms (min ${Math.min(...exploreTimes).toFixed(0)}, max ${Math.max(...exploreTimes).toFixed(0)}) after navigation start`,
  );
  await picture(browser, `${service.base}/explore`, "explore");
}

async function firstLoad(browser, service) {
  const home = await firstLoadJs(browser, service.base, "/", "article.card");
  const explore = await firstLoadJs(browser, service.base, "/explore", FIRST_BAR);
  console.log(
    `First-load JS, home:    ${kb(home.transferred)} transferred (${kb(home.raw)} raw, ${home.files} files)`,
  );
  console.log(
    `First-load JS, explore: ${kb(explore.transferred)} transferred (${kb(explore.raw)} raw, ${explore.files} files; goal ≤ 300 KB)`,
  );
}

async function longHistory(browser, service) {
  const history = await makeLongHistory(service);
  console.log(
    `History data: 1 series with ${history.runCount.toLocaleString("en-US")} runs (${history.seconds.toFixed(1)} s to generate)`,
  );
  const historyTimes = await timeToSelector(
    browser,
    `${service.base}/history?series=${history.seriesId}`,
    "figure.chart .recharts-line-curve",
  );
  console.log(
    `History, ${HISTORY_POINTS.toLocaleString("en-US")} points (server downsampling, max_points=1000; ${RUNS} cold loads): drawn at median ${median(historyTimes).toFixed(0)} ms (min ${Math.min(...historyTimes).toFixed(0)}, max ${Math.max(...historyTimes).toFixed(0)})`,
  );
  await picture(browser, `${service.base}/history?series=${history.seriesId}`, "history-100k");
}

const WIDE_DATA_DIR = path.join(REPO, ".data", "bench", "wide");

/** One load of `url`, as bigSuiteLoad: first chart, longest task, and the series pages fetched. */
async function wideLoad(page, url) {
  const seriesPages = [];
  const count = (request) => {
    if (new URL(request.url()).pathname === "/api/v1/series") seriesPages.push(request.url());
  };
  page.on("request", count);
  const load = await bigSuiteLoad(page, url);
  page.off("request", count);
  return { ...load, pages: seriesPages.length };
}

/** Explore over 1,000,000 series in 10 suites: one 100,000-series suite, and no filter. */
async function wide(browser) {
  if (!existsSync(path.join(WIDE_DATA_DIR, "pg")))
    throw new Error("no wide data set: run `.venv/bin/python bench/wide_speed.py --generate-only`");
  // No demo studies: the data set stays what bench/wide_speed.py made (it regenerates otherwise).
  const service = await startService({
    dataDir: WIDE_DATA_DIR,
    reset: false,
    env: { BENCHBOARD_DEMO: "false" },
  });
  try {
    for (const [label, pathname, name] of [
      ["one 100,000-series suite", "/explore?suite=wide-03", "explore-wide-suite"],
      ["no filter", "/explore", "explore-wide"],
    ]) {
      // As big-suite: 1400 px, one warm-up load (assets cached, service warm), then RUNS loads.
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      await watchLongTasks(page);
      const url = `${service.base}${pathname}`;
      await wideLoad(page, url);
      const loads = [];
      for (let i = 0; i < RUNS; i++) loads.push(await wideLoad(page, url));
      await context.close();
      const first = loads.map((l) => l.firstChart);
      const longest = loads.map((l) => l.longest);
      const frames = loads.map((l) => l.longestFrame);
      console.log(
        `Explore, 1,000,000 series, ${label} (1400 px, ${RUNS} warm loads): first chart at median ${median(first).toFixed(0)} ms (max ${Math.max(...first).toFixed(0)}; goal ≤ 1,500); longest main-thread task median ${median(longest).toFixed(0)} ms (max ${Math.max(...longest).toFixed(0)}; goal ≤ 200); longest animation frame median ${median(frames).toFixed(0)} ms (max ${Math.max(...frames).toFixed(0)}); series pages fetched per load: ${Math.max(...loads.map((l) => l.pages))} at most`,
      );
      await picture(browser, url, name);
    }
  } finally {
    await service.stop();
  }
}

const CASES = {
  js: firstLoad,
  explore: seedExplore,
  "big-suite": bigSuite,
  history: longHistory,
  wide,
};

async function main() {
  const chosen = process.argv.slice(2);
  const unknown = chosen.filter((name) => !(name in CASES));
  if (unknown.length)
    throw new Error(`unknown case ${unknown.join(", ")}; cases: ${Object.keys(CASES).join(", ")}`);
  if (!existsSync(path.join(FRONTEND, "dist", "index.html")))
    throw new Error("no dist/: run `npm run build` first");
  const service = await startService({ dataDir: DATA_DIR });
  const browser = await launchBrowser();
  try {
    for (const [name, measure] of Object.entries(CASES))
      if (chosen.length === 0 || chosen.includes(name)) await measure(browser, service);
    console.log("Pictures: bench/out/*.png");
  } finally {
    await browser.close();
    await service.stop();
  }
}

await main();
