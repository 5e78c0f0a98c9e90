import { clickKey, codeOfKey, detailsOfKey } from "../../click-counter/click-keys";
import { decodeDetails, encodeDetails } from "../../visitors/dimensions";

/** Rows of link_clicks_hourly to add to: each a click key (code and details) and its clicks. */
export interface HourlyRows {
  readonly keys: string[];
  readonly clicks: number[];
}

/**
 * The hourly analytics rows a batch of clicks (per click key) adds to, for the codes in
 * `stored` (the others' links are gone). A click key is a code and its details, which
 * together are a row's key, so each key is one row and is passed as it is: PostgreSQL
 * splits it (click-analytics/store.ts), which costs the flush far less on this thread
 * than passing a column apiece. Clicks counted without details (a journal from before
 * analytics) count as unknown, in `nowHour`, added to that row if the batch has it too.
 */
export function hourlyRows(counts: ReadonlyMap<string, number>, stored: ReadonlySet<string>, nowHour: number): HourlyRows {
  const keys: string[] = [];
  const clicks: number[] = [];
  let bare: Map<string, number> | undefined;
  for (const [key, n] of counts) {
    const code = codeOfKey(key);
    if (!stored.has(code)) continue;
    if (detailsOfKey(key) === undefined) {
      const row = clickKey(code, encodeDetails(decodeDetails(undefined, nowHour)));
      (bare ??= new Map()).set(row, (bare.get(row) ?? 0) + n);
      continue;
    }
    keys.push(key);
    clicks.push(n);
  }
  // One statement may not add to a row twice: a bare code's row joins the same key's.
  if (bare !== undefined) {
    for (const [row, n] of bare) {
      const at = keys.indexOf(row);
      if (at >= 0) clicks[at] += n;
      else {
        keys.push(row);
        clicks.push(n);
      }
    }
  }
  return { keys, clicks };
}
