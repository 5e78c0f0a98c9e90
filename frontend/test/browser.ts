// The front end's pages in the repo's headless Chromium (runtime/test/browser.ts).
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { saveScreenshot } from "../../runtime/test/browser.ts";

export { launchBrowser, type Browser } from "../../runtime/test/browser.ts";

export const screenshotDir = fileURLToPath(new URL("./screenshots", import.meta.url));

/** A screenshot per page, to look at (frontend/test/screenshots/ is gitignored). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await saveScreenshot(page, screenshotDir, name);
}
