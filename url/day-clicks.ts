import { api, APIError } from "encore.dev/api";
import { clickCounter } from "./click-counting/instance";
import { db } from "./db";
import { reportable } from "./reportable";

export interface DayClicksRequest {
  /** A UTC day, YYYY-MM-DD. */
  date: string;
}

export interface ReferrerClicks {
  /** A referrer's host, or "direct". */
  value: string;
  humans: number;
}

export interface DayClicksResponse {
  /** People's clicks on every link that day. */
  humanClicks: number;
  /** Bots' clicks (crawlers, link previews, scripts) on every link that day. */
  botClicks: number;
  /**
   * The referrers of most human clicks that day, most first (at most 5), on links a report
   * may name (links/reportable.ts): anonymous, without a password, neither deleted nor disabled.
   */
  topReferrers: ReferrerClicks[];
}

const topReferrers = 5;

/**
 * One UTC day's clicks, for the analytics service's daily report: the day's human and bot
 * clicks over every link, and the top referrers by human clicks of the links a report may
 * name. Internal and read-only. Scans that day's analytics rows of every link, once a day.
 */
export const dayClicks = api(
  { expose: false, method: "GET", path: "/internal/day-clicks/:date" },
  async ({ date }: DayClicksRequest): Promise<DayClicksResponse> => {
    const day = /^\d{4}-\d{2}-\d{2}$/.test(date) ? new Date(`${date}T00:00:00Z`) : undefined;
    if (day === undefined || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== date) {
      throw APIError.invalidArgument(`date must be a date as YYYY-MM-DD, got "${date}"`);
    }
    await clickCounter.flush(); // this instance's counted clicks count too
    const next = new Date(day.getTime() + 86_400_000);
    const [totals, referrers] = await Promise.all([
      db.queryRow<{ humans: number; bots: number }>`
        SELECT COALESCE(sum(humans), 0)::float8 AS humans, COALESCE(sum(bots), 0)::float8 AS bots FROM (
          SELECT sum(clicks) FILTER (WHERE NOT bot) AS humans, sum(clicks) FILTER (WHERE bot) AS bots
          FROM link_clicks_hourly WHERE hour >= ${day} AND hour < ${next}
          UNION ALL
          SELECT sum(humans), sum(bots) FROM link_clicks_daily WHERE dimension = 'all' AND day = ${date}::date
        ) AS both_kinds`,
      // Only reportable links' clicks (links/reportable.ts): where a password or owned
      // link's visitors come from is its audience, which a public report must not show.
      db.rawQueryAll<ReferrerClicks>(
        `SELECT value, sum(humans)::float8 AS humans FROM (
           SELECT h.referrer AS value, sum(h.clicks) AS humans
           FROM link_clicks_hourly h JOIN urls u ON u.code = h.code AND ${reportable("u")}
           WHERE h.hour >= $1 AND h.hour < $2 AND NOT h.bot GROUP BY h.referrer
           UNION ALL
           SELECT d.value, sum(d.humans)
           FROM link_clicks_daily d JOIN urls u ON u.code = d.code AND ${reportable("u")}
           WHERE d.dimension = 'referrer' AND d.day = $3::date AND d.value <> '' GROUP BY d.value
         ) AS both_kinds
         GROUP BY value HAVING sum(humans) > 0
         ORDER BY sum(humans) DESC, value
         LIMIT $4`,
        day,
        next,
        date,
        topReferrers,
      ),
    ]);
    return { humanClicks: totals!.humans, botClicks: totals!.bots, topReferrers: referrers };
  },
);
