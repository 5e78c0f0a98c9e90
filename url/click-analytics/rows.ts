import { codeOfKey, detailsOfKey } from "../click-counting/batches";
import { decodeDetails, encodeDetails, type ClickDetails } from "./dimensions";

/** Rows of link_clicks_hourly to add to, as columns (one array each, for unnest). */
export interface HourlyRows {
  readonly codes: string[];
  readonly hours: number[];
  readonly bots: boolean[];
  readonly referrers: string[];
  readonly countries: string[];
  readonly browsers: string[];
  readonly oses: string[];
  readonly devices: string[];
  readonly clicks: number[];
}

/**
 * The hourly analytics rows a batch of clicks (per click key) adds to, for the codes in
 * `stored` (the others' links are gone). A click key is a code and its details, which
 * are a row's key, so each key is one row. Rows come sorted by key, so two instances
 * writing overlapping rows lock them in the same order and cannot deadlock. Clicks
 * counted without details (a journal from before analytics) count as unknown, in `nowHour`.
 */
export function hourlyRows(counts: ReadonlyMap<string, number>, stored: ReadonlySet<string>, nowHour: number): HourlyRows {
  const rows: HourlyRows = { codes: [], hours: [], bots: [], referrers: [], countries: [], browsers: [], oses: [], devices: [], clicks: [] };
  // Keys are summed per row first: a bare code and unknown details are the same row,
  // and one statement may not add to a row twice.
  const sums = new Map<string, { code: string; d: ClickDetails; n: number }>();
  for (const [key, n] of counts) {
    const code = codeOfKey(key);
    if (!stored.has(code)) continue;
    const d = decodeDetails(detailsOfKey(key), nowHour);
    const row = `${code}\t${encodeDetails(d)}`;
    const sum = sums.get(row);
    if (sum === undefined) sums.set(row, { code, d, n });
    else sum.n += n;
  }
  for (const row of [...sums.keys()].sort()) {
    const { code, d, n } = sums.get(row)!;
    rows.codes.push(code);
    rows.hours.push(d.hour);
    rows.bots.push(d.bot);
    rows.referrers.push(d.referrer);
    rows.countries.push(d.country);
    rows.browsers.push(d.browser);
    rows.oses.push(d.os);
    rows.devices.push(d.device);
    rows.clicks.push(n);
  }
  return rows;
}
