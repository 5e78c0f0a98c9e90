// Debian's Chromium, headless, driven by playwright-core (which downloads no browser).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";

const executablePath = "/usr/bin/chromium";
// No sandbox: CI runs as root, where Chromium refuses its sandbox. The rest keeps the
// browser from reaching out (updates, sync, QUIC probes) and from needing a GPU.
const args = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export interface Browser {
  readonly context: BrowserContext;
  readonly page: Page;
  close(): Promise<void>;
}

/** A fresh profile in a temp folder: no storage, cookies or cache from an earlier run. */
export async function launchBrowser(): Promise<Browser> {
  const userDataDir = mkdtempSync(path.join(tmpdir(), "browser-profile-"));
  // Playwright passes the profile as --user-data-dir itself (and refuses it among args).
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    args,
    headless: true,
    viewport: { width: 900, height: 720 },
    locale: "en-GB",
    timezoneId: "UTC",
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

export const screenshotDir = fileURLToPath(new URL("./screenshots", import.meta.url));

/** A screenshot per page, to look at (frontend/test/screenshots/ is gitignored). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
}
