// Browser tests against the real service with the seed studies (see harness.mjs).
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { api, launchBrowser, parseCsv, REPO, revealAll, screenshots, startService } from "./harness.mjs";

let service;
let browser;
let page;

before(async () => {
  service = await startService();
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  page.on("pageerror", (error) => console.error("page error:", error.message));
});

after(async () => {
  await browser?.close();
  await service?.stop();
});

const open = async (pathname) => {
  await page.goto(`${service.base}${pathname}`);
};

/** The distinct texts of a table column once they equal `expected` (or the last seen, after 10 s). */
async function columnSettlesTo(id, expected) {
  let seen = [];
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    seen = [...new Set((await column(id)).map((t) => t.trim()))];
    if (JSON.stringify(seen) === JSON.stringify(expected)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return seen;
}

async function waitUntil(check, what, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The text of every cell of a table column, by the column's id. */
const column = (id) => page.locator(`table.data-table tbody td[data-column="${id}"]`).allInnerTexts();

describe("studies", () => {
  test("the home page lists the five studies", async () => {
    await open("/");
    await page.locator("article.card").first().waitFor();
    const suites = await page
      .locator("article.card")
      .evaluateAll((cards) => cards.map((c) => c.dataset.suite));
    assert.deepEqual(suites.sort(), [
      "dart-async-file-writes",
      "dart-isolate-messaging",
      "fio-sync-vs-async",
      "go-vs-dart-rest",
      "wpf-async-log-reading",
    ]);
    await screenshots(page, "studies");
  });
});

describe("explore", () => {
  test("language=dart&mode=async shows only Dart async bars, and the URL round-trips", async () => {
    await open("/explore?language=dart&mode=async");
    await page.locator("figure.chart svg").first().waitFor();
    await revealAll(page);
    assert.equal(
      await page.locator("figure.chart .recharts-surface").count(),
      await page.locator("figure.chart").count(),
      "every chart is drawn",
    );
    const legend = await page.locator("figure.chart .legend li").allInnerTexts();
    assert.ok(legend.length > 0, "a legend names the bars");
    for (const label of legend) assert.match(label.trim(), /^dart · .* · async/, label);
    const modes = await page
      .locator("figure.chart .recharts-bar-rectangle path, figure.chart [data-mode]")
      .evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute("data-mode")).filter(Boolean))]);
    assert.deepEqual(modes, ["async"], "every drawn bar is an async one");
    assert.deepEqual(
      [...new Set(await column("language"))].map((t) => t.trim()),
      ["dart"],
    );
    assert.deepEqual([...new Set(await column("mode"))], ["async"]);
    assert.equal(await page.locator('input[name="language"][value="dart"]').isChecked(), true);
    assert.equal(await page.locator('input[name="mode"][value="async"]').isChecked(), true);
    await screenshots(page, "explore");

    await page.locator('input[name="suite"][value="dart-async-file-writes"]').click();
    await page.waitForURL(/suite=dart-async-file-writes/);
    await page.locator('input[name="suite"][value="dart-async-file-writes"]:checked').waitFor();
    assert.deepEqual(await columnSettlesTo("suite", ["dart-async-file-writes"]), ["dart-async-file-writes"]);
    await page.goBack();
    await page.waitForURL((url) => !url.search.includes("suite="));
    const params = new URL(page.url()).searchParams;
    assert.deepEqual([params.getAll("language"), params.getAll("mode")], [["dart"], ["async"]]);
    await page.locator('input[name="suite"][value="dart-async-file-writes"]:not(:checked)').waitFor();
    await page.goForward();
    await page.waitForURL(/suite=dart-async-file-writes/);
  });

  test("CSV export matches the table", async () => {
    await open("/explore?suite=fio-sync-vs-async&metric=latency&sort=value&dir=desc");
    await page.locator("table.data-table tbody tr").first().waitFor();
    const benchmarks = await column("benchmark");
    const values = await page
      .locator('table.data-table tbody td[data-column="value"] data')
      .evaluateAll((cells) => cells.map((c) => Number(c.getAttribute("value"))));
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    const csv = await readFile(await download.path(), "utf8");
    assert.match(csv, /^# filters: suite=fio-sync-vs-async; .*metric=latency/m);
    const [header, ...body] = parseCsv(csv);
    assert.equal(body.length, benchmarks.length, "one CSV row per table row");
    const b = header.indexOf("Benchmark");
    const v = header.indexOf("Latest value");
    assert.deepEqual(
      body.map((r) => r[b]),
      benchmarks,
    );
    assert.deepEqual(
      body.map((r) => Number(r[v])),
      values,
    );
  });
});

async function modeRow(query, benchmark, params) {
  await open(`/modes?${query}`);
  await page.locator("table.data-table tbody tr").first().waitFor();
  const rows = page.locator("table.data-table tbody tr");
  const texts = await rows.evaluateAll((trs) =>
    trs.map((tr) =>
      Object.fromEntries([...tr.querySelectorAll("td")].map((td) => [td.dataset.column, td.innerText])),
    ),
  );
  return texts.find(
    (r) => r.benchmark === benchmark && params.every((p) => r.params.split(", ").includes(p)),
  );
}

describe("sync vs async", () => {
  test("Dart file-write-tiny, 10,000 writes: async 2.09× slower", async () => {
    const row = await modeRow("suite=dart-async-file-writes", "file-write-tiny", ["writes=10000"]);
    assert.ok(row, "the pair is listed");
    assert.equal(row.wording, "async 2.09× slower");
    assert.equal(row.ratio, "2.087×");
    await page.getByText("async 2.09× slower", { exact: true }).first().waitFor();
    await screenshots(page, "sync-vs-async");
  });

  test("fio random-read latency (direct=0): async 33.3× slower", async () => {
    const row = await modeRow("suite=fio-sync-vs-async&metric=latency", "fio-randread-4k", ["direct=0"]);
    assert.ok(row, "the pair is listed");
    assert.equal(row.ratio, "33.31×");
    assert.equal(row.wording, "async 33.3× slower");
  });

  test("fio random-read IOPS (direct=0): higher is better, so async is 2.48× slower", async () => {
    const row = await modeRow("suite=fio-sync-vs-async&metric=iops", "fio-randread-4k", ["direct=0"]);
    assert.equal(row?.wording, "async 2.48× slower");
  });
});

describe("compare runs", () => {
  test("a copy of the fio run with one value raised 20% shows that one change", async () => {
    const original = JSON.parse(
      await readFile(path.join(REPO, "backend/benchboard/demo/004-fio-sync-vs-async.json"), "utf8"),
    );
    const copy = structuredClone(original);
    copy.id = crypto.randomUUID();
    copy.started_at = "2025-03-21T00:00:00Z";
    copy.results[0].value = original.results[0].value * 1.2;
    const created = await api(service, "/api/v1/runs", { method: "POST", body: JSON.stringify(copy) });
    assert.equal(created.id, copy.id);
    // The service may answer 201 a moment before the run is readable (commit after the response).
    await waitUntil(
      async () => (await fetch(`${service.base}/api/v1/runs/${copy.id}`)).ok,
      "the new run is readable",
    );

    await open(`/runs/${copy.id}`);
    const link = page.getByRole("link", { name: /Compare with the previous run/ });
    await link.waitFor({ timeout: 10_000 }).catch(async (error) => {
      throw new Error(`${error.message}\npage shows: ${await page.locator("main").innerText()}`);
    });
    await link.click();
    await page.waitForURL(new RegExp(`baseline=${original.id}&contender=${copy.id}`));
    await page.locator("table.data-table tbody tr").first().waitFor();
    const changes = await column("change");
    const verdicts = await column("verdict");
    assert.equal(changes.length, original.results.length, "every result is shared");
    const changed = changes.map((c, i) => [c, verdicts[i]]).filter(([c]) => c !== "0.0%");
    assert.deepEqual(changed, [["+20.0%", "worse"]], "only the raised latency changed, for the worse");
    assert.equal(verdicts.filter((v) => v === "within noise").length, original.results.length - 1);
    assert.equal(await page.locator("h2", { hasText: "Only in the baseline" }).count(), 1);
    await screenshots(page, "compare-runs");
  });
});

describe("history and runs", () => {
  test("a history chart renders with a real time axis", async () => {
    // fio random-read latency, sync and async (direct=0): the compare test above added a second run.
    const query = "suite=fio-sync-vs-async&benchmark=fio-randread-4k&metric=latency&limit=10";
    const { items } = await api(service, `/api/v1/series?${query}`);
    const chosen = items.filter((s) => s.params.direct === 0);
    assert.equal(chosen.length, 2);
    await open(`/history?${chosen.map((s) => `series=${s.id}`).join("&")}`);
    await page.locator("figure.chart .recharts-line-dot").first().waitFor();
    assert.equal(await page.locator("figure.chart .recharts-line").count(), 2);
    assert.equal(await page.locator("figure.chart .recharts-line-dot").count(), 4, "two runs per series");
    assert.equal(await page.locator("table.data-table tbody tr").count(), 4);
    assert.match(
      await page.locator("figure.chart").first().getAttribute("aria-label"),
      /Time chart of latency/,
    );
    await screenshots(page, "history");
  });

  test("a run page lists its results", async () => {
    await open("/runs/78b4942b-2f4e-493d-84fe-e2814dc4ab9b");
    await page.locator("table.data-table tbody tr").first().waitFor();
    assert.equal(await page.locator("table.data-table tbody tr").count(), 52);
    const upload = page.getByRole("link", { name: /raw upload/ });
    assert.equal(
      await upload.getAttribute("href"),
      "/api/v1/runs/78b4942b-2f4e-493d-84fe-e2814dc4ab9b/upload",
    );
    await screenshots(page, "run");
  });
});

describe("errors", () => {
  test("an unknown run shows the service's error message", async () => {
    await open("/runs/00000000-0000-4000-8000-000000000000");
    const alert = page.getByRole("alert");
    await alert.waitFor();
    const text = await alert.innerText();
    assert.match(text, /404/);
    assert.match(text, /not_found/);
  });

  test("filters are keyboard-usable", async () => {
    await open("/explore?suite=wpf-async-log-reading");
    await page.locator('input[name="mode"][value="async"]').focus();
    await page.keyboard.press("Space");
    await page.waitForURL(/mode=async/);
    assert.deepEqual(await columnSettlesTo("mode", ["async"]), ["async"]);
  });
});
