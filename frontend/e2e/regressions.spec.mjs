// Regressions end to end: a step uploaded through the API is detected by the service, listed on the
// Regressions page, triaged by a maintainer in the browser, and marked on the series' history chart.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { api, launchBrowser, revealAll, screenshots, startService } from "./harness.mjs";

const SUITE = "e2e-step-suite";
const DAY = 86_400_000;

let service;
let maintainToken;
let browser;
let page;

/** 10 runs near 100 µs, then 8 near 130 µs, one a day, of one new series. */
function stepRuns() {
  const start = Date.parse("2025-01-01T00:00:00Z");
  return Array.from({ length: 18 }, (_, i) => ({
    id: crypto.randomUUID(),
    suite: SUITE,
    name: `step run ${i + 1}`,
    started_at: new Date(start + i * DAY).toISOString(),
    hardware: { name: "e2e-runner" },
    results: [
      {
        benchmark: "parse-json",
        params: { size: "1MiB" },
        language: "rust",
        implementation: "serde_json",
        metric: "latency",
        unit: "us",
        // ±1 % of deterministic jitter, so the step is the only change.
        value: (i < 10 ? 100 : 130) * (1 + (((i * 7) % 5) - 2) / 200),
      },
    ],
  }));
}

async function waitFor(check, what, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

before(async () => {
  service = await startService({ scope: "upload" });
  maintainToken = await service.createToken("maintain", "maintainer");
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on("pageerror", (error) => console.error("page error:", error.message));
});

after(async () => {
  await browser?.close();
  await service?.stop();
});

describe("regressions", () => {
  let regression;

  test("a 30 % step in an uploaded series is detected", async () => {
    for (const run of stepRuns())
      await api(service, "/api/v1/runs", { method: "POST", body: JSON.stringify(run) });
    // Detection runs in the background after each upload commits.
    regression = await waitFor(async () => {
      const { items } = await api(service, `/api/v1/regressions?suite=${SUITE}`);
      return items.find((r) => r.direction === "regression");
    }, "the step is detected");
    assert.equal(regression.status, "untriaged");
    assert.ok(Math.abs(regression.relative_change - 0.3) < 0.03, String(regression.relative_change));
    assert.equal(regression.started_at, "2025-01-11T00:00:00Z", "found at the first slower run");
  });

  test("the Regressions page lists it, filtered through the URL", async () => {
    await page.goto(`${service.base}/`);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Regressions" }).click();
    await page.waitForURL(/\/regressions$/);
    await page.locator('select[name="suite"]').selectOption(SUITE);
    await page.waitForURL(new RegExp(`suite=${SUITE}`));
    await page.locator('select[name="status"]').selectOption("untriaged");
    await page.waitForURL(/status=untriaged/);
    const row = page.locator(`li[data-regression="${regression.id}"]`);
    await row.waitFor();
    assert.equal(await page.locator("li[data-regression]").count(), 1);
    const text = await row.innerText();
    assert.match(text, /\+\d\d\.\d % slower/);
    assert.match(text, /11 Jan 2025/);
    assert.match(text, /confidence \d+ %/);
    assert.match(text, /parse-json \(size=1MiB\)/);
    assert.equal(await row.locator(".badge").innerText(), "untriaged");
  });

  test("a maintainer triages it with a pasted token; refused tokens are explained", async () => {
    await page
      .locator(`li[data-regression="${regression.id}"]`)
      .getByRole("link", { name: /triage/i })
      .click();
    await page.waitForURL(new RegExp(`/regressions/${regression.id}$`));
    const save = page.getByRole("button", { name: "Save triage" });
    await save.waitFor();
    assert.equal(await save.isDisabled(), true, "no token, no saving");

    const pasteToken = async (token) => {
      const forget = page.getByRole("button", { name: "Forget token" });
      if (await forget.isVisible()) await forget.click();
      await page.getByLabel("Maintainer token").fill(token);
      await page.getByRole("button", { name: "Use token" }).click();
    };
    await pasteToken("not-a-real-token");
    await page.getByLabel("Status").selectOption("acknowledged");
    await save.click();
    assert.match(await page.getByRole("alert").innerText(), /Error 401/);
    await pasteToken(service.token); // upload scope only
    await save.click();
    await waitFor(
      async () => /Error 403/.test(await page.getByRole("alert").innerText()),
      "a 403 is shown",
      10_000,
    );
    assert.match(await page.locator(".triage").innerText(), /maintain or admin scope/);

    await pasteToken(maintainToken);
    await page.getByLabel("Note").fill("Known: the new allocator; tracked upstream.");
    await page.getByLabel("Links (one per line)").fill("https://github.com/example/parser/issues/42");
    await save.click();
    await page.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await page.locator("h1 .badge", { hasText: "acknowledged" }).waitFor();
    const trail = page.locator(".audit-trail");
    await trail.getByText("status: “untriaged” → “acknowledged”").waitFor();
    assert.match(await trail.innerText(), /maintainer-\d+/);
    assert.match(await trail.innerText(), /detector/);

    const stored = await page.evaluate(() => ({
      session: Object.values(sessionStorage),
      local: Object.values(localStorage),
    }));
    assert.deepEqual(stored.session, [maintainToken], "the token lives in sessionStorage");
    assert.deepEqual(stored.local, [], "and nowhere longer-lived");
    const saved = await api(service, `/api/v1/regressions/${regression.id}`);
    assert.equal(saved.status, "acknowledged");
    assert.equal(saved.note, "Known: the new allocator; tracked upstream.");
    assert.deepEqual(saved.links, ["https://github.com/example/parser/issues/42"]);
    await screenshots(page, "regression-triage");

    await page.goto(`${service.base}/regressions?suite=${SUITE}`);
    const row = page.locator(`li[data-regression="${regression.id}"]`);
    await row.locator(".badge", { hasText: "acknowledged" }).waitFor();
    assert.match(await row.innerText(), /Known: the new allocator/);
    await screenshots(page, "regressions");
  });

  test("the history chart marks the change with its status and note, and takes a maintainer's note", async () => {
    await page
      .locator(`li[data-regression="${regression.id}"]`)
      .getByRole("link", { name: /parse-json/ })
      .click();
    await page.waitForURL(new RegExp(`/history\\?series=${regression.series.id}$`));
    const marker = page.locator('figure.chart .marker-label[data-kind="regression"]');
    await marker.waitFor();
    assert.equal(await marker.locator('.marker-badge[data-status="acknowledged"]').count(), 1);
    const hover = await marker.locator("title").textContent();
    assert.match(hover, /^regression \(acknowledged\): \+\d\d\.\d % slower — “Known: the new allocator/);
    const listed = page.locator(`.chart-note[data-key="regression-${regression.id}"]`);
    assert.equal(await listed.locator(".badge").innerText(), "acknowledged");
    assert.match(await listed.innerText(), /Known: the new allocator/);

    await page.getByText("Add a note to a series").click();
    await page.getByLabel("Date (UTC)").fill("2025-01-05");
    await page.locator(".annotation-form").getByLabel("Note").fill("Runner moved to kernel 6.8");
    await page.getByRole("button", { name: "Add note" }).click();
    await page.locator(".chart-note-annotation", { hasText: "Runner moved to kernel 6.8" }).waitFor();
    await page.locator('figure.chart .marker-label[data-kind="annotation"]').waitFor();
    assert.match(
      await page.locator('figure.chart .marker-label[data-kind="annotation"] title').textContent(),
      /^annotation: Runner moved to kernel 6.8/,
    );
    await page.locator(".annotation-form summary").click(); // closed again for the pictures
    await revealAll(page);
    await screenshots(page, "history-markers");
  });
});
