// The token page: a maintainer makes a suite's CI token, copies its one-time secret, and
// revokes it; the service then refuses it.
import { expect, screenshots, test, uniqueSuite } from "./fixtures";

test("a maintainer makes, copies and revokes a suite's token", async ({
  page,
  context,
  request,
  service,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const suite = uniqueSuite("tokens");
  const name = `ci-${suite}`;
  await page.goto("/tokens");
  await expect(page.getByRole("heading", { name: "API tokens" })).toBeVisible();
  await page.getByLabel("Maintainer token").fill(service.maintainToken);
  await page.getByRole("button", { name: "Use token" }).click();

  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Scope").selectOption("upload");
  await page.getByLabel("Suites").fill(suite);
  await page.getByRole("button", { name: "Make token" }).click();
  const secretField = page.getByLabel(/copy it now/);
  await expect(secretField).toHaveValue(/^bb_/);
  const secret = await secretField.inputValue();
  await page.getByRole("button", { name: "Copy" }).click();
  await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText(suite);
  await screenshots(page, "tokens");

  const run = (target: string) => ({
    suite: target,
    started_at: "2025-03-20T12:00:00Z",
    hardware: { name: "e2e-box" },
    results: [{ benchmark: "b", language: "go", metric: "time", unit: "ms", value: 1 }],
  });
  const upload = (target: string) =>
    request.post("/api/v1/runs", { data: run(target), headers: { authorization: `Bearer ${secret}` } });
  expect((await upload(suite)).status(), "its suite").toBe(201);
  expect((await upload(`${suite}-other`)).status(), "another suite").toBe(403);

  page.once("dialog", (dialog) => void dialog.accept());
  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  await expect(row).toContainText("revoked");
  expect((await upload(suite)).status(), "revoked at once").toBe(401);
});
