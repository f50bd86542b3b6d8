// Branches and the CI gate end to end: the ingest CLI publishes five runs of main and gates a
// feature run 25 % slower on one benchmark; the summary's links open the compare view and both
// histories, and Explore's branch selector switches between main's series and the feature's.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { cell, expect, type Service, screenshots, test, uniqueSuite } from "./fixtures";
import { FRONTEND } from "./harness.mjs";

const run = promisify(execFile);
const INGEST = path.resolve(FRONTEND, "../.venv/bin/benchboard-ingest");
const LEVELS_US = { "parse-config": 120, "render-page": 850 };

/** A contract v1 results array: ten replicates per benchmark with ±1 % deterministic jitter. */
async function resultsFile(dir: string, name: string, levels: Record<string, number>) {
  const results = Object.entries(levels).map(([benchmark, level]) => {
    const samples = Array.from({ length: 10 }, (_, i) => level * (1 + ((i % 5) - 2) / 200));
    const value = samples.reduce((a, b) => a + b, 0) / samples.length;
    return { benchmark, language: "go", metric: "time_per_op", unit: "us", value, samples };
  });
  const file = path.join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify(results));
  return file;
}

/** `benchboard-ingest upload` as CI runs it; resolves to its exit code (6: a regression). */
async function ingest(baseURL: string, service: Service, suite: string, file: string, ...flags: string[]) {
  const args = ["upload", file, "--suite", suite, "--hardware-name", "e2e-runner", "--quiet", ...flags];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BENCHBOARD_URL: baseURL,
    BENCHBOARD_TOKEN: service.uploadToken,
  };
  delete env.GITHUB_STEP_SUMMARY;
  try {
    await run(INGEST, args, { env, timeout: 120_000 });
    return 0;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== "number") throw error;
    return code;
  }
}

/** Five runs of main, then the gate on a feature run 25 % slower on render-page: its summary. */
async function gatedFeatureRun(baseURL: string, service: Service, suite: string) {
  const dir = await mkdtemp(path.join(tmpdir(), "benchboard-e2e-"));
  for (let n = 0; n < 5; n++) {
    const file = await resultsFile(dir, `main-${n}`, LEVELS_US);
    const flags = [
      "--branch",
      "main",
      "--commit",
      `m${n}`,
      "--started-at",
      `2026-11-0${n + 1}T10:00:00+00:00`,
    ];
    expect(await ingest(baseURL, service, suite, file, ...flags)).toBe(0);
  }
  const slower = await resultsFile(dir, "feature", { ...LEVELS_US, "render-page": 850 * 1.25 });
  const summaryFile = path.join(dir, "summary.md");
  const flags = ["--branch", "feature-x", "--started-at", "2026-11-07T10:00:00+00:00"];
  const gate = ["--fail-on", "regression", "--summary-file", summaryFile];
  expect(await ingest(baseURL, service, suite, slower, ...flags, ...gate), "exit 6: a regression").toBe(6);
  const summary = await readFile(summaryFile, "utf8");
  expect(summary).toMatch(/#### Regressions[\s\S]*render-page/);
  return summary;
}

test("the gate's summary links open the compare view and both histories", async ({
  page,
  service,
  baseURL,
}) => {
  const summary = await gatedFeatureRun(baseURL as string, service, uniqueSuite("gate"));
  const compare = summary.match(/\[compare runs\]\(([^)]+)\)/)?.[1] ?? "";
  expect(compare.startsWith(`${baseURL}/compare?baseline=`)).toBe(true);
  await page.goto(compare);
  await expect(page.getByText("branch feature-x")).toBeVisible();
  await expect(page.getByText("branch main")).toBeVisible();
  const slower = page.locator("tbody tr").filter({ has: cell(page, "benchmark").getByText("render-page") });
  await expect(slower).toContainText("+25.0%");
  // The two sides are the figures the verdict compares, named as the summary names them.
  await expect(cell(slower, "baseline")).toHaveText("850 µs median of 10");
  await expect(summary).toContain("850 µs (median of 10)");
  await screenshots(page, "compare-from-summary");

  const history = summary.match(/render-page[^\n]*\[history\]\(([^)]+)\)/)?.[1] ?? "";
  expect(history).toContain("/history?series=");
  await page.goto(history);
  await expect(page.getByText(/branch main/).first()).toBeVisible();
  await expect(page.getByText(/branch feature-x/).first()).toBeVisible();
});

test("Explore shows main by default and the feature branch when chosen", async ({
  page,
  service,
  baseURL,
}) => {
  const suite = uniqueSuite("branches");
  await gatedFeatureRun(baseURL as string, service, suite);
  await page.goto(`/explore?suite=${suite}`);
  const branch = page.getByRole("combobox", { name: "Branch" });
  await expect(branch.locator("option")).toHaveText([
    "Default branch of each suite",
    "feature-x (2 series)",
    "main (2 series)",
  ]);
  const render = page.locator("tbody tr").filter({ has: cell(page, "benchmark").getByText("render-page") });
  await expect(render).toContainText("850");
  await branch.selectOption("feature-x");
  await expect(page).toHaveURL(/branch=feature-x/);
  await expect(render).toContainText(/1\.06|1,06/);
  await screenshots(page, "explore-branch");
  // A suite with runs of one branch offers no choice.
  await page.goto("/explore?suite=dart-async-file-writes");
  await expect(page.locator('fieldset[data-dimension="suite"]')).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Branch" })).toHaveCount(0);
});
