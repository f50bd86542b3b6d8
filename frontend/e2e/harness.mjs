// The real Benchboard service on a free port with a fresh embedded database (seed studies load on
// start), and Debian's Chromium; used by the e2e run (playwright.config.ts, e2e/global-setup.ts)
// and by the front-end bench.
import { execFile, spawn } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { chromium } from "@playwright/test";

const run = promisify(execFile);
export const FRONTEND = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const REPO = path.resolve(FRONTEND, "..");
const BIN = path.resolve(FRONTEND, process.env.BENCHBOARD_BIN ?? "../.venv/bin/benchboard");
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

/** A TCP port nothing listens on right now. */
export function freePort() {
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
 * A fresh service: `db reset --yes`, `serve` (on `port`, or a free one), a token with the given
 * scope (more with createToken), with `env` added to the environment. Call stop() when done: it
 * ends the server by its PID. startWorker() runs one more `benchboard worker` on its database.
 * @param {{ dataDir?: string, scope?: string, port?: number, env?: Record<string, string> }} [options]
 */
export async function startService({
  dataDir = path.join(REPO, ".data", "e2e"),
  scope = "upload",
  port: chosenPort,
  env: extraEnv = {},
  reset = true,
} = {}) {
  const port = chosenPort ?? (await freePort());
  const env = {
    ...process.env,
    ...extraEnv,
    BENCHBOARD_DATA_DIR: dataDir,
    BENCHBOARD_PORT: String(port),
    BENCHBOARD_HOST: "127.0.0.1",
  };
  delete env.DATABASE_URL;
  await mkdir(dataDir, { recursive: true });
  // `reset: false` serves a database as it is (a benchmark's generated data set).
  await run(BIN, ["db", reset ? "reset" : "upgrade", ...(reset ? ["--yes"] : [])], {
    env,
    timeout: 180_000,
  });
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
  /** A change-detection worker on this service's database (e.g. one started with none); stop() ends it. */
  const startWorker = () => {
    const worker = spawn(BIN, ["worker"], { env, stdio: ["ignore", "pipe", "pipe"] });
    worker.stdout.on("data", (d) => log.push(String(d)));
    worker.stderr.on("data", (d) => log.push(String(d)));
    return { stop: () => stopProcess(worker) };
  };
  return { base, token, createToken, startWorker, stop: () => stopProcess(child), log, pid: child.pid };
}

/** Ends a child process by its PID: SIGTERM, then SIGKILL if it is still there after 15 s. */
function stopProcess(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", resolve);
    process.kill(child.pid, "SIGTERM");
    setTimeout(() => child.exitCode === null && process.kill(child.pid, "SIGKILL"), 15_000).unref();
  });
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
