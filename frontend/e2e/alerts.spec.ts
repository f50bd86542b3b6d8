// Alert groups end to end: a commit that slows five of six series is one group on the Regressions
// page, opened to its changes and triaged in one step by a maintainer in the browser.
import type { Page } from "@playwright/test";
import type { AlertGroup, AlertGroupDetail, AlertGroupPage, NotificationSettingsOut } from "../src/api/types";
import { expect, type Service, screenshots, test, type UploadBody, uniqueSuite } from "./fixtures";

const DAY = 86_400_000;
const SERIES = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"];
const SLOWED = SERIES.slice(0, 5);

/** The commit run `i` measured: 40 hex digits, a different one per run. */
const commitOf = (i: number) => (i + 1).toString(16).padStart(2, "0").repeat(20);

/** 10 runs, then 8 where commit 10 made five of six benchmarks 30 % slower. */
function commitRuns(suite: string): UploadBody[] {
  const start = Date.parse("2025-01-01T00:00:00Z");
  return Array.from({ length: 18 }, (_, i) => ({
    id: crypto.randomUUID(),
    suite,
    started_at: new Date(start + i * DAY).toISOString(),
    hardware: { name: "e2e-runner" },
    git: { commit: commitOf(i) },
    results: SERIES.map((benchmark) => ({
      benchmark,
      language: "rust",
      metric: "latency",
      unit: "us",
      value: (i >= 10 && SLOWED.includes(benchmark) ? 130 : 100) * (1 + (((i * 7) % 5) - 2) / 200),
    })),
  }));
}

/** Uploads the suite and waits until its one group holds the five changes. */
async function detectedGroup(service: Service): Promise<AlertGroup> {
  const suite = uniqueSuite("group");
  for (const run of commitRuns(suite)) await service.upload(run);
  let found: AlertGroup | undefined;
  await expect
    .poll(
      async () => {
        const { items } = await service.get<AlertGroupPage>(`/api/v1/alert-groups?suite=${suite}`);
        found = items[0];
        return items.map((g) => g.changes);
      },
      { message: "one group of the five slowed series", timeout: 60_000 },
    )
    .toEqual([5]);
  return found as AlertGroup;
}

async function pasteToken(page: Page, token: string) {
  await page.getByLabel("Maintainer token").fill(token);
  await page.getByRole("button", { name: "Use token" }).click();
  await expect(page.getByRole("button", { name: "Forget token" })).toBeVisible();
}

test.describe("alert groups", () => {
  test("the Regressions page shows one group per commit, opened to its changes", async ({
    page,
    service,
  }) => {
    const group = await detectedGroup(service);
    await page.goto(`/regressions?suite=${group.suite}`);
    const item = page.locator(`li[data-group="${group.id}"]`);
    await expect(item).toContainText(`5 regressions at commit ${commitOf(10).slice(0, 12)}`);
    await expect(item).toContainText("5 untriaged");
    await expect(page.getByTestId("triage-health")).toHaveText(
      /^Nothing triaged yet · 1 group waiting, oldest /,
    );
    await item.locator("summary").click();
    await expect(item.locator("li[data-regression]")).toHaveCount(5);
    await screenshots(page, "alert-groups");
    // The per-series view is one click away.
    await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Every change" }).click();
    await expect(page.locator("li[data-regression]")).toHaveCount(5);
  });

  test("a maintainer triages the whole group in one step", async ({ page, service }) => {
    const group = await detectedGroup(service);
    await page.goto(`/regressions/groups/${group.id}`);
    const item = page.locator(`li[data-group="${group.id}"]`);
    await expect(item.locator("li[data-regression]")).toHaveCount(5);
    await pasteToken(page, service.maintainToken);
    await item.getByLabel("Status for all").selectOption("acknowledged");
    await item.getByLabel("Note").fill("The new allocator; tracked upstream.");
    await item.getByRole("button", { name: "Triage 5 untriaged" }).click();
    await expect(item.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
    await expect(item.locator("li[data-regression] .badge")).toHaveText(Array(5).fill("acknowledged"));
    await expect(item).toContainText("5 acknowledged");
    const saved = await service.get<AlertGroupDetail>(`/api/v1/alert-groups/${group.id}`);
    expect(saved.by_status).toEqual({ acknowledged: 5 });
    expect(saved.members.map((m) => m.note)).toEqual(Array(5).fill("The new allocator; tracked upstream."));
    await screenshots(page, "alert-group-triage");
  });
});

test.describe("maintaining groups and notifications", () => {
  test("a maintainer sets a change apart, then moves it back to its group", async ({ page, service }) => {
    const group = await detectedGroup(service);
    const member = (await service.get<AlertGroupDetail>(`/api/v1/alert-groups/${group.id}`)).members[0];
    if (!member) throw new Error("the group has no change");
    await page.goto(`/regressions/${member.id}`);
    const section = page.getByRole("region", { name: "Alert group" });
    await expect(section.getByRole("link", { name: `alert group ${group.id}` })).toBeVisible();
    await pasteToken(page, service.maintainToken);
    await section.getByLabel("Move to").selectOption({ label: "A group of its own (a different cause)" });
    await section.getByRole("button", { name: "Move the change" }).click();
    await expect(section.getByRole("status").filter({ hasText: "Moved." })).toBeVisible();
    await expect(section.getByRole("link", { name: `alert group ${group.id}` })).toHaveCount(0);
    expect((await service.get<AlertGroupDetail>(`/api/v1/alert-groups/${group.id}`)).changes).toBe(4);
    await screenshots(page, "change-group-move");
    await section
      .getByLabel("Move to")
      .selectOption({ label: `Group ${group.id}: 4 regressions at commit ${commitOf(10).slice(0, 12)}` });
    await section.getByRole("button", { name: "Move the change" }).click();
    await expect(section.getByRole("link", { name: `alert group ${group.id}` })).toBeVisible();
    expect((await service.get<AlertGroupDetail>(`/api/v1/alert-groups/${group.id}`)).changes).toBe(5);
  });

  test("a maintainer sets a suite's notification targets and never sees a secret again", async ({
    page,
    service,
    request,
  }) => {
    const suite = uniqueSuite("notify");
    const [first] = commitRuns(suite);
    if (!first) throw new Error("no run");
    await service.upload(first);
    await page.goto(`/regressions?suite=${suite}`);
    await page.getByRole("link", { name: `Notifications of ${suite}` }).click();
    await expect(page.getByRole("heading", { name: `Notifications: ${suite}` })).toBeVisible();
    await pasteToken(page, service.maintainToken);
    await expect(page.getByText("No targets")).toBeVisible();
    await page.getByRole("button", { name: "Add a target" }).click();
    const secret = "hunter2hunter2";
    await page.getByLabel("Apprise URL").fill(`json://bot:${secret}@127.0.0.1:9/hook`);
    await page.getByLabel("improvements").check();
    await page.getByLabel("Smallest change (%)").fill("10");
    await page.getByRole("button", { name: "Save targets" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
    const saved = page.locator("li.notification-target");
    await expect(saved.locator("code.masked-url")).toContainText("json://bot:");
    await expect(page.getByLabel("Apprise URL")).toHaveCount(0);
    await page.reload();
    await expect(page.locator("code.masked-url")).toHaveCount(1);
    expect(await page.content()).not.toContain(secret);
    await page.getByLabel("Smallest change (%)").fill("20");
    await page.getByRole("button", { name: "Save targets" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
    await screenshots(page, "notification-settings");
    const response = await request.get(`/api/v1/suites/${suite}/notifications`, {
      headers: { authorization: `Bearer ${service.maintainToken}` },
    });
    const { targets } = (await response.json()) as NotificationSettingsOut;
    expect(targets.map((t) => [t.events, t.min_change])).toEqual([[["improvement", "regression"], 0.2]]);
    expect(JSON.stringify(targets)).not.toContain(secret);
    // Removing the last target leaves the suite unannounced.
    await page.getByRole("button", { name: "Remove target 1" }).click();
    await page.getByRole("button", { name: "Save targets" }).click();
    await expect(page.getByText("No targets")).toBeVisible();
  });
});
