// Browser tests against the real service (e2e/global-setup.ts starts it once for the run) in
// Debian's Chromium; no browser is downloaded. `npm run test:e2e`, or `make e2e` from the top.
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, freePort } from "./e2e/harness.mjs";

// Chosen once: each worker loads this file again and inherits the variable, so all agree.
process.env.BENCHBOARD_E2E_PORT ??= String(await freePort());

export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  outputDir: "e2e/test-results",
  // Every test makes its own data or reads only the seed studies, so any order works; one worker
  // keeps the 2-core CI machine from timing out under the service, the browser and the tests.
  workers: 1,
  forbidOnly: true,
  reporter: [["list"]],
  timeout: 90_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://127.0.0.1:${process.env.BENCHBOARD_E2E_PORT}`,
    browserName: "chromium",
    launchOptions: { executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS },
    viewport: { width: 1400, height: 900 },
    acceptDownloads: true,
    trace: "retain-on-failure",
  },
});
