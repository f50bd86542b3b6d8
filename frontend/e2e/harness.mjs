// Starts the real Benchboard service on a free port with a fresh embedded database (seed studies
// load on start), a headless Chromium from Debian, and helpers the specs share.
import { execFile, spawn } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { chromium } from "playwright-core";

const run = promisify(execFile);
export const FRONTEND = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const REPO = path.resolve(FRONTEND, "..");
const BIN = path.resolve(FRONTEND, process.env.BENCHBOARD_BIN ?? "../.venv/bin/benchboard");
export const SCREENSHOTS = path.join(FRONTEND, "e2e", "screenshots");

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(base, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`benchboard serve exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${base}/api/v1/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the service did not answer /api/v1/health within ${timeoutMs} ms`);
}

/**
 * A fresh service: `db reset --yes`, `serve`, a token with the given scope (more with createToken).
 * Call stop() when done.
 */
export async function startService({ dataDir = path.join(REPO, ".data", "e2e"), scope = "upload" } = {}) {
  const port = await freePort();
  const env = {
    ...process.env,
    BENCHBOARD_DATA_DIR: dataDir,
    BENCHBOARD_PORT: String(port),
    BENCHBOARD_HOST: "127.0.0.1",
  };
  delete env.DATABASE_URL;
  await mkdir(dataDir, { recursive: true });
  await run(BIN, ["db", "reset", "--yes"], { env, timeout: 180_000 });
  const log = [];
  const child = spawn(BIN, ["serve"], { env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.on("data", (d) => log.push(String(d)));
  child.stderr.on("data", (d) => log.push(String(d)));
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(base, child, 180_000);
  } catch (error) {
    child.kill("SIGTERM");
    throw new Error(`${error.message}\n${log.join("").slice(-3000)}`);
  }
  /** A further token, e.g. a maintainer's beside the upload token; its name is `${name}-<time>`. */
  const createToken = async (tokenScope, name = "e2e") => {
    const args = ["token", "create", "--name", `${name}-${Date.now()}`, "--scope", tokenScope];
    const { stdout } = await run(BIN, args, { env, timeout: 120_000 });
    return stdout.trim().split("\n").at(-1);
  };
  const token = await createToken(scope);
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", resolve);
      child.kill("SIGTERM");
      setTimeout(() => child.exitCode === null && child.kill("SIGKILL"), 15_000).unref();
    });
  return { base, token, createToken, stop, log };
}

export async function launchBrowser() {
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

export async function api(service, pathname, init = {}) {
  const response = await fetch(`${service.base}${pathname}`, {
    ...init,
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${service.token}`,
      ...init.headers,
    },
  });
  const body = await response.json();
  if (!response.ok)
    throw new Error(`${init.method ?? "GET"} ${pathname}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/** Scrolls through the page so everything drawn on approach (charts below the fold) is drawn. */
export async function revealAll(page) {
  for (let y = 0; y < (await page.evaluate(() => document.documentElement.scrollHeight)); y += 600) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForTimeout(30);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(100);
}

/** Screenshots of the page at desktop and phone widths; fails if the page is wider than the screen. */
export async function screenshots(page, name) {
  await mkdir(SCREENSHOTS, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
    await page.waitForTimeout(300);
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    if (scrollWidth > width)
      throw new Error(`${name}: the page is ${scrollWidth} px wide at a ${width} px screen`);
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Parses CSV (RFC 4180 quoting) after the leading `#` comment lines. */
export function parseCsv(csv) {
  const text = csv.replace(/^(#[^\n]*\n)+/, "");
  const rows = [];
  let row = [];
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
