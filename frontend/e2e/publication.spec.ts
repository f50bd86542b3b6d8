// Published figures (issue 30) in a real browser: the study page draws each finding's chart from
// the service's own SVG, the Embed button hands out a snippet of that image's URL, and Cite the
// study's BibTeX; History draws each series' chart and badge through the snippets it hands out.
import { expect, screenshots, test } from "./fixtures";

/** Every <img> of `selector` has loaded and drawn something. */
async function drawnImages(page: import("@playwright/test").Page, selector: string) {
  const images = page.locator(selector);
  await expect(images.first()).toBeVisible();
  for (const image of await images.all()) {
    await image.scrollIntoViewIfNeeded();
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
  }
  return images.count();
}

test("a study page draws its findings' charts and offers their embed snippets and a citation", async ({
  page,
}) => {
  await page.goto("/studies/dart-async-file-writes");
  const count = await drawnImages(page, ".published-figure img");
  expect(count).toBe(3);
  const first = page.locator("li.finding").first();
  const src = await first.locator(".published-figure img").getAttribute("src");
  expect(src).toMatch(/^\/api\/v1\/findings\/\d+\/chart\.svg$/);

  await first.getByRole("button", { name: "Embed" }).click();
  const origin = new URL(page.url()).origin;
  await expect(first.getByRole("textbox", { name: "markdown snippet" })).toHaveValue(
    `[![async 2.09× slower than sync for 10,000 tiny writes](${origin}${src})](${origin}/studies/dart-async-file-writes)`,
  );
  await first.getByRole("radio", { name: "HTML" }).check();
  await expect(first.getByRole("textbox", { name: "html snippet" })).toHaveValue(
    new RegExp(`^<a href="${origin}/studies/dart-async-file-writes"><img src="${origin}${src}"`),
  );

  await page.getByRole("button", { name: "Cite" }).click();
  await expect(page.getByRole("textbox", { name: "bibtex citation" })).toHaveValue(
    /^@misc\{benchboard-dart-async-file-writes,[\s\S]*title = \{\{Thinking Through Async Overhead in Dart\}\}/,
  );
  await page.getByRole("radio", { name: "CITATION.cff" }).check();
  await expect(page.getByRole("textbox", { name: "cff citation" })).toHaveValue(/^cff-version: 1\.2\.0/);
  await screenshots(page, "publication-study");
});

test("the images a History page hands out draw in a page of <img> tags", async ({ page, request }) => {
  const series = await (await request.get("/api/v1/series?suite=fio-sync-vs-async&limit=2")).json();
  const ids: number[] = series.items.map((s: { id: number }) => s.id);
  await page.goto(`/history?${ids.map((id) => `series=${id}`).join("&")}`);
  const snippets: string[] = [];
  for (const id of ids) {
    await page.getByRole("button", { name: `Embed #${id}` }).click();
    await page.getByRole("radio", { name: "HTML" }).first().check();
    snippets.push(await page.getByRole("textbox", { name: "html snippet" }).first().inputValue());
    await page.getByRole("button", { name: `Embed #${id}` }).click();
  }
  // A reader's page on this origin: the snippets, and each series' badge and a dark PNG of its chart.
  const origin = new URL(page.url()).origin;
  const extra = ids.flatMap((id) => [
    `<img src="${origin}/api/v1/series/${id}/badge.svg" alt="badge ${id}">`,
    `<img src="${origin}/api/v1/series/${id}/chart.png?width=600&height=300&theme=dark" alt="png ${id}">`,
  ]);
  // Scaled to a phone's column by their width attribute, as a README's column scales them (the
  // service's CSP allows no inline style); naturalWidth stays the image's own.
  const tags = [...snippets, ...extra].map((tag) => tag.replace("<img ", '<img width="360" '));
  await page.setContent(`<main>${tags.join("\n")}</main>`);
  expect(await drawnImages(page, "img")).toBe(ids.length * 3);
  const widths = await page
    .locator("img")
    .evaluateAll((images) => images.map((img) => (img as HTMLImageElement).naturalWidth));
  expect(widths.slice(0, ids.length)).toEqual(ids.map(() => 800));
  expect(widths.filter((width) => width === 600)).toHaveLength(ids.length);
  await screenshots(page, "publication-embedded");
});
