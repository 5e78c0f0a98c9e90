// Debian's Chromium, headless, driven by playwright-core (which downloads no browser): what
// the browser tests of the web front end and of the development dashboard open their pages in.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";

export const executablePath = "/usr/bin/chromium";
// No sandbox: CI runs as root, where Chromium refuses its sandbox. The rest keeps the
// browser from reaching out (updates, sync, QUIC probes) and from needing a GPU.
export const chromiumArgs = [
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

export interface BrowserOptions {
  readonly viewport?: { readonly width: number; readonly height: number };
}

/** A fresh profile in a temp folder: no storage, cookies or cache from an earlier run. */
export async function launchBrowser({ viewport = { width: 900, height: 720 } }: BrowserOptions = {}): Promise<Browser> {
  const userDataDir = mkdtempSync(path.join(tmpdir(), "browser-profile-"));
  // Playwright passes the profile as --user-data-dir itself (and refuses it among args).
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    args: chromiumArgs,
    headless: true,
    viewport,
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

/** A full-page screenshot `<dir>/<name>.png`, to look at; answers its path. */
export async function saveScreenshot(page: Page, dir: string, name: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
