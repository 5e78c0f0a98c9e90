// What the tests of the click analytics rows share: links made with SQL, and clicks added
// to their analytics rows as one flush adds them (url/click-analytics/store.ts), without a
// click counter or a server in between.
import { clickKey } from "../../click-counter/click-keys.ts";
import { addClickAnalytics } from "../../url/click-analytics/store.ts";
import { db } from "../../url/db.ts";
import { encodeDetails, type ClickDetails } from "../../visitors/dimensions.ts";

/** A link's clicks as a test gives them: its code, the clicks' details, how many. */
export type Clicks = [code: string, details: ClickDetails, count: number];

/** Links `codes` of `workspace` (null: anonymous), made with SQL. */
export async function insertLinks(workspace: string | null, codes: readonly string[]): Promise<void> {
  for (const code of codes) await db.exec`INSERT INTO urls (code, original_url, workspace_id) VALUES (${code}, 'https://example.com/', ${workspace})`;
}

/** Adds the clicks to their links' analytics rows (and their workspaces') in one transaction, as one flush does; it arms no fold. */
export async function flushClicks(clicks: readonly Clicks[]): Promise<void> {
  const counts = new Map<string, number>();
  for (const [code, details, n] of clicks) {
    const key = clickKey(code, encodeDetails(details));
    counts.set(key, (counts.get(key) ?? 0) + n);
  }
  await using tx = await db.begin();
  await addClickAnalytics(tx, counts, new Set(clicks.map(([code]) => code)));
  await tx.commit();
}
