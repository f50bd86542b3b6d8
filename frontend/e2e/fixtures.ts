// What the specs share: the `service` fixture (the API with the run's tokens), a page that fails
// its test on any uncaught error, the seed studies as files, and page helpers.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { test as base, expect, type Locator, type Page } from "@playwright/test";
import type { RunUpload } from "../src/api/types";
import { REPO } from "./harness.mjs";

type ResultUpload = RunUpload["results"][number];
type HardwareUpload = RunUpload["hardware"];
type GitUpload = NonNullable<RunUpload["git"]>;

/**
 * An upload as the contract lets a client write it: the generated body type with only the
 * contract's required fields required (the generated type also requires those with defaults).
 */
export type UploadBody = Pick<RunUpload, "suite" | "started_at"> &
  Partial<Omit<RunUpload, "hardware" | "results" | "git">> & {
    git?: Partial<GitUpload>;
    hardware: Pick<HardwareUpload, "name"> & Partial<HardwareUpload>;
    results: (Pick<ResultUpload, "benchmark" | "language" | "metric" | "unit" | "value"> &
      Partial<Omit<ResultUpload, "stats">> & { stats?: Partial<NonNullable<ResultUpload["stats"]>> })[];
  };

export interface Service {
  /** Uploads a run with the upload token; the test fails unless the service answers 201. */
  upload(run: UploadBody): Promise<void>;
  /** A GET of the API; the test fails unless the service answers 200. */
  get<T>(pathname: string): Promise<T>;
  /** A write with a maintainer's token. */
  patchAsMaintainer(pathname: string, body: object): Promise<void>;
  uploadToken: string;
  maintainToken: string;
}

function fromEnvironment(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is unset: run the specs with \`npm run test:e2e\``);
  return value;
}

export const test = base.extend<{ service: Service }>({
  page: async ({ page }, use) => {
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    // The service's Content-Security-Policy must not block anything the dashboard does: Chromium
    // reports each blocked script, style or fetch as a console error starting "Refused to".
    page.on("console", (message) => {
      if (message.type() === "error" && message.text().startsWith("Refused to")) errors.push(message.text());
    });
    await use(page);
    expect(errors, "uncaught errors or Content-Security-Policy violations in the page").toEqual([]);
  },
  service: async ({ request }, use) => {
    const uploadToken = fromEnvironment("BENCHBOARD_E2E_UPLOAD_TOKEN");
    const maintainToken = fromEnvironment("BENCHBOARD_E2E_MAINTAIN_TOKEN");
    await use({
      uploadToken,
      maintainToken,
      async upload(run) {
        const response = await request.post("/api/v1/runs", {
          data: run,
          headers: { authorization: `Bearer ${uploadToken}` },
        });
        expect(response.status(), await response.text()).toBe(201);
      },
      async get(pathname) {
        const response = await request.get(pathname);
        expect(response.status(), await response.text()).toBe(200);
        return response.json();
      },
      async patchAsMaintainer(pathname, body) {
        const response = await request.patch(pathname, {
          data: body,
          headers: { authorization: `Bearer ${maintainToken}` },
        });
        expect(response.status(), await response.text()).toBe(200);
      },
    });
  },
});

export { expect };

/** A suite of the test's own, so no other test sees its runs: "e2e-compare-1f3a9c2e". */
export const uniqueSuite = (name: string) => `e2e-${name}-${crypto.randomUUID().slice(0, 8)}`;

const DEMO = path.join(REPO, "backend", "benchboard", "demo");

/** The seed studies' runs, the files the service loads on start. */
export async function seedRuns(): Promise<UploadBody[]> {
  const files = (await readdir(DEMO)).filter((name) => name.endsWith(".json")).sort();
  return Promise.all(files.map(async (name) => JSON.parse(await readFile(path.join(DEMO, name), "utf8"))));
}

/** The seed run with this id. */
export async function seedRun(id: string): Promise<UploadBody & { id: string }> {
  const run = (await seedRuns()).find((r) => r.id === id);
  if (!run?.id) throw new Error(`no seed run ${id}`);
  return { ...run, id: run.id };
}

/** Every cell of the table's column, by the column's id. */
export const column = (page: Page, id: string) =>
  page.locator(`table.data-table tbody td[data-column="${id}"]`);

/** A row's cell of a column (or, in a `has` filter of rows, that cell), by the column's id. */
export const cell = (scope: Page | Locator, id: string) => scope.locator(`td[data-column="${id}"]`);

/**
 * Presses Tab (Shift+Tab with `back`) until `target` has the focus, as a keyboard-only reader
 * would; fails if it takes more than `most` presses, i.e. the target is not in the tab order.
 * Returns how many presses it took.
 */
export async function tabTo(page: Page, target: Locator, most = 60, back = false): Promise<number> {
  await expect(target).toBeVisible();
  for (let presses = 1; presses <= most; presses++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    if (await target.evaluate((element) => element === document.activeElement)) return presses;
  }
  throw new Error(`${target} not reached in ${most} presses of Tab`);
}

/** Draws every chart of the page (they draw as they come near the viewport) and checks each is drawn. */
export async function drawAllCharts(page: Page) {
  const figures = page.locator("figure.chart");
  await expect(figures.first()).toBeVisible();
  for (const figure of await figures.all()) {
    await figure.scrollIntoViewIfNeeded();
    await expect(figure.locator(".recharts-surface").first()).toBeVisible();
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** The desktop and phone screens every page is pictured (and scanned) at. */
export const [DESKTOP, PHONE] = [
  { width: 1400, height: 900 },
  { width: 390, height: 844 },
];
export const WIDTHS = [DESKTOP, PHONE];

/**
 * Full-page pictures at desktop and phone widths in e2e/screenshots/; fails if the page is wider
 * than the screen (waiting for charts to re-lay out after the resize).
 */
export async function screenshots(page: Page, name: string) {
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth), {
        message: `${name}: the page is no wider than a ${size.width} px screen`,
      })
      .toBeLessThanOrEqual(size.width);
    await page.screenshot({
      path: path.join(import.meta.dirname, "screenshots", `${name}-${size.width}.png`),
      fullPage: true,
    });
  }
  await page.setViewportSize(DESKTOP);
}

/** Parses CSV (RFC 4180 quoting) after the leading `#` comment lines. */
export function parseCsv(csv: string): string[][] {
  const text = csv.replace(/^(#[^\n]*\n)+/, "");
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(cell);
      cell = "";
    } else if (char === "\n") {
      row.push(cell.replace(/\r$/, ""));
      rows.push(row);
      row = [];
      cell = "";
    } else cell += char;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}
