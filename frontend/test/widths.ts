// Pages looked at on a phone (390 px) and a desktop (1280 px): a screenshot of each, and
// the check that the page itself never scrolls sideways at either width.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import type { Page } from "playwright-core";
import { screenshot } from "./browser.ts";

/** Where the PNGs also go, to be looked at: SHOTS_DIR, else frontend/test/screenshots only. */
const shotsDir = process.env.SHOTS_DIR;

/** At 390 px then 1280 px wide: no horizontal overflow, and a screenshot `name-390` / `name-1280`; the viewport is left at 1280. */
export async function atBothWidths(page: Page, name: string): Promise<void> {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");
    expect(overflow, `${name} at ${width} px scrolls sideways`).toBe(0);
    await screenshot(page, `${name}-${width}`);
    if (shotsDir) {
      mkdirSync(shotsDir, { recursive: true });
      await page.screenshot({ path: path.join(shotsDir, `${name}-${width}.png`), fullPage: true });
    }
  }
}
