// A year of one link's click analytics, written straight into the url database in the
// shape the app and its rollup leave them: hourly rows for the last 35 days (one per
// combination of values a click records), daily rows (UTC days, one per dimension value)
// before that. Made up, but spread as a popular link's would be, and the same
// on every run (a seeded generator), so runs compare.
import pg from "pg";
import { connectTo, type Where } from "./stored-clicks.ts";

export const yearClicks = 100_000;
const botShare = 0.1;
const hourMs = 3_600_000;
const dayMs = 24 * hourMs;
/** Hourly rows older than this are rolled up into daily rows. */
const hourlyKeptMs = 35 * dayMs;

const referrers = [
  "direct", "google.com", "t.co", "facebook.com", "linkedin.com", "reddit.com", "news.ycombinator.com", "bing.com",
  "duckduckgo.com", "instagram.com", "youtube.com", "github.com", "l.facebook.com", "lnkd.in", "mail.google.com",
  "outlook.live.com", "slack.com", "teams.microsoft.com", "discord.com", "medium.com", "substack.com", "yahoo.com",
  "baidu.com", "yandex.ru", "ecosia.org", "pinterest.com", "tiktok.com", "whatsapp.com", "telegram.org",
  "stackoverflow.com", "dev.to", "lobste.rs", "mastodon.social", "bsky.app", "quora.com", "wikipedia.org",
  "notion.so", "docs.google.com", "feedly.com", "unknown",
];
const countries = [
  "US", "GB", "DE", "IN", "FR", "NL", "CA", "BR", "JP", "AU", "ES", "IT", "PL", "SE", "MX", "KR", "CH", "BE",
  "AT", "IE", "NO", "DK", "SG", "ZA", "unknown",
];
const humanBrowsers = ["Chrome", "Mobile Safari", "Safari", "Edge", "Firefox", "Samsung Internet"];
const botBrowsers = ["Googlebot", "curl"];
const humanOses = ["Windows", "Android", "iOS", "macOS", "Linux"];
const humanDevices = ["desktop", "mobile", "tablet"];

/** mulberry32: small, fast and seeded, so every run writes the same rows. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Picks from `values` with Zipf-like weights (the first most often), as referrers and countries fall. */
function zipfPicker(values: readonly string[], random: () => number): () => string {
  const weights = values.map((_, i) => 1 / (i + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative: number[] = [];
  weights.reduce((sum, w) => (cumulative.push((sum + w) / total), sum + w), 0);
  return () => {
    const r = random();
    return values[cumulative.findIndex((c) => r < c)] ?? values[values.length - 1]!;
  };
}

/** More clicks in the (UTC) afternoon than at night. */
function hourWeight(utcHour: number): number {
  return 0.25 + 0.75 * Math.max(0, 1 - Math.abs(utcHour - 15) / 12);
}

interface Rows {
  /** "hour\0bot\0referrer\0country\0browser\0os\0device" → clicks; hour is an ISO instant, bot "t" or "f". */
  readonly hourly: Map<string, number>;
  /** "dimension\0day\0value" → [humans, bots]. */
  readonly daily: Map<string, [number, number]>;
}

/** `yearClicks` clicks from the UTC midnight 364 days before `now`'s day up to `now`, as rows. */
function yearOfRows(now: number): Rows {
  const random = generator(31);
  const pick = {
    referrer: zipfPicker(referrers, random),
    country: zipfPicker(countries, random),
    browser: zipfPicker(humanBrowsers, random),
    os: zipfPicker(humanOses, random),
    device: zipfPicker(humanDevices, random),
    bot: zipfPicker(botBrowsers, random),
  };
  // Whole UTC days after the one holding now - 365 days, so that range holds every click.
  const start = Math.floor(now / dayMs) * dayMs - 364 * dayMs;
  const hourlyFrom = Math.floor((now - hourlyKeptMs) / hourMs) * hourMs;
  const rows: Rows = { hourly: new Map(), daily: new Map() };
  for (let n = 0; n < yearClicks; ) {
    const at = start + random() * (now - start);
    if (random() > hourWeight(new Date(at).getUTCHours())) continue;
    n++;
    const bot = random() < botShare;
    const values: [string, string][] = [
      ["referrer", bot ? "direct" : pick.referrer()],
      ["country", pick.country()],
      ["browser", bot ? pick.bot() : pick.browser()],
      ["os", bot ? "unknown" : pick.os()],
      ["device", bot ? "bot" : pick.device()],
    ];
    if (at >= hourlyFrom) {
      const key = [new Date(Math.floor(at / hourMs) * hourMs).toISOString(), bot ? "t" : "f", ...values.map(([, v]) => v)].join("\0");
      rows.hourly.set(key, (rows.hourly.get(key) ?? 0) + 1);
      continue;
    }
    const day = new Date(at).toISOString().slice(0, 10);
    for (const [dimension, value] of [["all", ""], ...values]) {
      const key = `${dimension}\0${day}\0${value}`;
      const counts = rows.daily.get(key) ?? [0, 0];
      counts[bot ? 1 : 0]++;
      rows.daily.set(key, counts);
    }
  }
  return rows;
}

/**
 * Writes a year of clicks for `code` (a link with none yet), adds them to its urls.clicks
 * so the analytics invariant holds, and gathers the tables' statistics as autovacuum
 * would. Returns the rows written.
 */
export async function seedYearOfClicks(where: Where, code: string, now: number): Promise<{ hourly: number; daily: number }> {
  const rows = yearOfRows(now);
  const client = await connectTo(where);
  try {
    await client.query("BEGIN");
    await insertHourly(client, code, rows.hourly);
    await insertDaily(client, code, rows.daily);
    await client.query("UPDATE urls SET clicks = clicks + $2 WHERE code = $1", [code, yearClicks]);
    await client.query("COMMIT");
    await client.query("ANALYZE link_clicks_hourly, link_clicks_daily");
  } finally {
    await client.end();
  }
  return { hourly: rows.hourly.size, daily: rows.daily.size };
}

/** Rows per statement: each array parameter holds this many values. */
const chunkSize = 5000;

async function insertHourly(client: pg.Client, code: string, rows: Map<string, number>): Promise<void> {
  const entries = [...rows];
  for (let i = 0; i < entries.length; i += chunkSize) {
    const chunk = entries.slice(i, i + chunkSize).map(([key, clicks]) => [...key.split("\0"), clicks]);
    await client.query(
      `INSERT INTO link_clicks_hourly (code, hour, bot, referrer, country, browser, os, device, clicks)
       SELECT $1, * FROM unnest($2::timestamptz[], $3::boolean[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::bigint[])`,
      [code, ...[0, 1, 2, 3, 4, 5, 6, 7].map((column) => chunk.map((row) => row[column]))],
    );
  }
}

async function insertDaily(client: pg.Client, code: string, rows: Map<string, [number, number]>): Promise<void> {
  const entries = [...rows];
  for (let i = 0; i < entries.length; i += chunkSize) {
    const chunk = entries.slice(i, i + chunkSize).map(([key, counts]) => [...key.split("\0"), ...counts]);
    await client.query(
      `INSERT INTO link_clicks_daily (code, dimension, day, value, humans, bots)
       SELECT $1, * FROM unnest($2::text[], $3::date[], $4::text[], $5::bigint[], $6::bigint[])`,
      [code, ...[0, 1, 2, 3, 4].map((column) => chunk.map((row) => row[column]))],
    );
  }
}
