// The dashboard as production serves it: under the strict Content-Security-Policy (the page fixture
// fails a test on any violation), precompressed scripts, and the API viewer from bundled files.
import { expect, test } from "./fixtures";

test.describe("delivery", () => {
  test("the Explore page runs under the CSP with precompressed, immutable scripts", async ({ page }) => {
    const scripts: Promise<{ url: string; headers: Record<string, string>; bytes: number }>[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() === "script")
        scripts.push(
          // The body as the page got it, decoded: its size decides whether a compressed twin exists.
          Promise.all([response.allHeaders(), response.body()]).then(([headers, body]) => ({
            url: response.url(),
            headers,
            bytes: body.length,
          })),
        );
    });
    await page.goto("/explore");
    await expect(page.locator("figure.chart .recharts-bar-rectangle").first()).toBeVisible();
    expect(scripts.length).toBeGreaterThan(0);
    for (const { url, headers, bytes } of await Promise.all(scripts)) {
      // Files under 1 KB are built without compressed twins (vite.config.ts): they go as they are.
      expect(headers["content-encoding"], `${url} (${bytes} bytes)`).toBe(bytes >= 1024 ? "br" : undefined);
      expect(headers["cache-control"], url).toBe("public, max-age=31536000, immutable");
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
