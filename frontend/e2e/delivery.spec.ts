// The dashboard as production serves it: under the strict Content-Security-Policy (the page fixture
// fails a test on any violation), precompressed scripts, and the API viewer from bundled files.
import { expect, test } from "./fixtures";

test.describe("delivery", () => {
  test("the Explore page runs under the CSP with precompressed, immutable scripts", async ({ page }) => {
    const scripts: Promise<Record<string, string>>[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() === "script") scripts.push(response.allHeaders());
    });
    await page.goto("/explore");
    await expect(page.locator("figure.chart .recharts-bar-rectangle").first()).toBeVisible();
    expect(scripts.length).toBeGreaterThan(0);
    for (const headers of await Promise.all(scripts)) {
      // Files under 1 KB are built without compressed twins (vite.config.ts): they go as they are.
      if (Number(headers["content-length"]) >= 1024) expect(headers["content-encoding"]).toBe("br");
      expect(headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    }
  });

  test("/docs shows every operation from bundled Swagger UI", async ({ page, context }) => {
    // No request may leave the service: the viewer must work with no internet.
    const elsewhere: string[] = [];
    await context.route(
      (url) => url.hostname !== "127.0.0.1",
      (route) => {
        elsewhere.push(route.request().url());
        return route.abort();
      },
    );
    await page.goto("/docs");
    await expect(page.locator(".opblock-summary-path", { hasText: "/api/v1/runs" }).first()).toBeVisible();
    await expect(page.locator(".opblock")).not.toHaveCount(0);
    expect(elsewhere).toEqual([]);
  });
});
