// The front end's pages in the repo's headless Chromium (runtime/test/browser.ts).
import { fileURLToPath } from "node:url";
import { chromium, type Browser as Chromium, type Page } from "playwright-core";
import { chromiumArgs, executablePath, saveScreenshot } from "../../runtime/test/browser.ts";

export { launchBrowser, type Browser } from "../../runtime/test/browser.ts";

export const screenshotDir = fileURLToPath(new URL("./screenshots", import.meta.url));

/** A screenshot per page, to look at (frontend/test/screenshots/ is gitignored). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await saveScreenshot(page, screenshotDir, name);
}

/**
 * What breaks the pages' Content-Security-Policy from now on: its violation events and the
 * console's reports of them, collected in the array answered.
 */
export async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  // Installed by the browser itself in every document, before the page's own code, so it
  // is no inline script of the page's and the policy does not apply to it.
  await page.exposeFunction("reportCspViolation", (report: string) => void violations.push(`event: ${report}`));
  await page.addInitScript(`document.addEventListener("securitypolicyviolation", (e) =>
    window.reportCspViolation(e.violatedDirective + " blocked " + (e.blockedURI || "inline") + " on " + e.documentURI));`);
  return violations;
}

/** People each in their own browser context (own storage, so own sign-in), in one Chromium. */
export interface People {
  /** A new person's page at `viewport`, signed out. */
  person(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

export async function launchPeople(): Promise<People> {
  const browser: Chromium = await chromium.launch({ executablePath, args: chromiumArgs, headless: true });
  return {
    async person(viewport = { width: 900, height: 720 }) {
      const context = await browser.newContext({ viewport, locale: "en-GB", timezoneId: "UTC" });
      return context.newPage();
    },
    close: () => browser.close(),
  };
}
