// Starts the real service once for the whole run: a fresh embedded database under .data/e2e with
// the seed studies, an upload token and a maintainer's token. Tests read them from the environment,
// which the workers inherit. The returned function stops the service, by its PID, after the run.
import type { FullConfig } from "@playwright/test";
import { startService } from "./harness.mjs";

export default async function globalSetup(config: FullConfig) {
  const baseURL = config.projects[0]?.use.baseURL;
  if (!baseURL) throw new Error("playwright.config.ts sets no baseURL");
  const service = await startService({ port: Number(new URL(baseURL).port), scope: "upload" });
  try {
    process.env.BENCHBOARD_E2E_UPLOAD_TOKEN = service.token;
    process.env.BENCHBOARD_E2E_MAINTAIN_TOKEN = await service.createToken("maintain", "maintainer");
  } catch (error) {
    await service.stop();
    throw error;
  }
  return async () => {
    await service.stop();
  };
}
