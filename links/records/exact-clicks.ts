import { url } from "~encore/clients";

/**
 * The exact clicks of `rows`' links, by code: stored plus those the url service answered
 * and has not written yet, read by that service in one consistent read (its click-counts
 * endpoint), as GET /:code/stats counts them. A row the url service no longer has (the
 * cleanup removed it meanwhile) keeps the count it was read with.
 */
export async function exactClicks(rows: readonly { code: string; clicks: number }[]): Promise<Map<string, number>> {
  const clicks = new Map(rows.map((row) => [row.code, row.clicks]));
  if (rows.length === 0) return clicks;
  const { counts } = await url.clickCounts({ codes: rows.map((row) => row.code) });
  for (const { code, clicks: counted } of counts) clicks.set(code, counted);
  return clicks;
}
