// The load and the checks of the cases where the database goes away under a running app
// (a restart, a network black hole): clients that look links up (cached and not), shorten
// and read stats, and what must hold afterwards.
import { expect } from "vitest";
import type { RunningApp } from "../support/app-process.ts";
import { lookUp as sendLookUp, pick, runClients, seedLinks, send, shorten, type Shortened, type Tally } from "./load.ts";
import { queryDatabase } from "./query.ts";

export interface OutageLinks {
  readonly seeded: Shortened[];
  /** Looked up once by HEAD, which counts no click: served from the cache throughout. */
  readonly cached: string[];
  /** Not looked up yet; shortens made under load join them. */
  readonly uncached: string[];
}

/** `n` links, the first half cached. */
export async function seedOutageLinks(app: RunningApp, n: number, label: string): Promise<OutageLinks> {
  const seeded = await seedLinks(app, n, label);
  const cached = seeded.slice(0, n / 2).map((s) => s.code);
  for (const code of cached) expect((await send(app, `/${code}`, { method: "HEAD" })).status).toBe(200);
  return { seeded, cached, uncached: seeded.slice(n / 2).map((s) => s.code) };
}

export interface OutageLoadOptions {
  readonly clients: number;
  /** Longer than this is a hang. */
  readonly requestLimitMs: number;
  /** Where the database is when a request is sent. */
  readonly phase: () => string;
  /** A share of the load on another kind of request (the runtime does not manage drizzle's pool, say). */
  readonly extra?: { readonly share: number; readonly kind: string; readonly route: () => string };
}

/** Clients sending 55% cached lookups, 15% uncached, then `extra`'s share, stats up to 80%, the rest shortens, tallied. */
export function outageLoad(app: RunningApp, links: OutageLinks, tally: Tally, options: OutageLoadOptions) {
  const { requestLimitMs, phase, extra } = options;
  let serial = 0;
  const lookUp = async (kind: string, code: string) => {
    const at = phase();
    const answer = await sendLookUp(app, code, requestLimitMs);
    tally.add(kind, at, answer);
    if (answer.status === 200) tally.click(code, answer.human);
  };
  return runClients(options.clients, async () => {
    const roll = Math.random();
    const at = phase();
    if (roll < 0.55) await lookUp("cached lookup", pick(links.cached));
    else if (roll < 0.7) await lookUp("uncached lookup", pick(links.uncached));
    else if (extra && roll < 0.7 + extra.share) tally.add(extra.kind, at, await send(app, extra.route(), {}, requestLimitMs));
    else if (roll < 0.8) tally.add("stats", at, await send(app, `/${pick(links.cached)}/stats`, {}, requestLimitMs));
    else {
      const url = `https://example.com/outage/${serial++}`;
      const answer = await shorten(app, url, requestLimitMs);
      tally.add("shorten", at, answer);
      if (answer.code) {
        tally.shortened.push({ code: answer.code, url });
        links.uncached.push(answer.code);
      }
    }
  });
}

/** Stats are exact while the app runs: stored clicks plus those it holds, each answered click once. */
export async function expectExactStats(app: RunningApp, codes: readonly string[], tally: Tally): Promise<void> {
  const stats: Record<string, number> = {};
  for (const code of codes) {
    const { status, body } = await send(app, `/${code}/stats`);
    expect(status).toBe(200);
    stats[code] = (JSON.parse(body!) as { clicks: number }).clicks;
  }
  expect(stats).toEqual(Object.fromEntries(codes.map((c) => [c, tally.clicks.get(c) ?? 0])));
}

/**
 * With the app stopped (a clean stop writes what it kept): every acknowledged link is
 * stored, and the stored clicks equal the answered ones, exactly. Returns the url rows.
 */
export async function expectNothingLost(serverUrl: string, links: OutageLinks, tally: Tally) {
  const rows = await queryDatabase<{ code: string; original_url: string; clicks: number }>(serverUrl, "url", "SELECT code, original_url, clicks FROM urls");
  const stored = new Map(rows.map((r) => [r.code, r]));
  const lost = [...links.seeded, ...tally.shortened].filter((s) => stored.get(s.code)?.original_url !== s.url);
  expect(lost).toEqual([]);
  const storedClicks = Object.fromEntries(rows.filter((r) => r.clicks > 0).map((r) => [r.code, r.clicks]));
  expect(storedClicks).toEqual(Object.fromEntries(tally.clicks));
  return rows;
}

/** The slowest 503, in ms (0 when none). */
export function slowest503(tally: Tally): number {
  return Math.max(0, ...[...tally.slowest].filter(([key]) => key.endsWith(" / 503")).map(([, ms]) => ms));
}
