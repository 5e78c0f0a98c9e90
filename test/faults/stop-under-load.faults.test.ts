// The app stopped while 16 clients click and shorten. SIGTERM: a clean stop, so every
// answered click and every acknowledged link is stored, exactly, and counted once in each
// analytics dimension as a person's or a bot's, as sent. SIGKILL: no goodbye, so
// acknowledged links are stored (each committed before its answer) and the clicks lost are
// at most those the click counter held: about one flush interval's worth, measured here;
// each analytics dimension still sums to a link's stored clicks.
import { rmSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, expect, test } from "vitest";
import { dropServerDatabases, startApp } from "../support/app-process.ts";
import { tempDataDir } from "../../runtime/vitest/temp-dir.ts";
import { expectClickAnalytics } from "./click-analytics.ts";
import { lookUp, pick, rps, runClients, seedLinks, shorten, shortenLimitsOff, summary, Tally, type Shortened } from "./load.ts";
import { queryDatabase } from "./query.ts";

const basePrefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}stopload_`;
const dataDirs: string[] = [];

afterAll(async () => {
  await dropServerDatabases(basePrefix);
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

const clients = 16;
/** The default CLICK_FLUSH_INTERVAL_MS: what a SIGKILL may cost is measured at what runs by default. */
const flushIntervalMs = 100;
/**
 * A flush that has taken its clicks but not yet committed them is lost with the process too:
 * room for that write on a loaded machine, on top of the interval itself.
 */
const flushWriteMs = 500;

interface Outcome {
  tally: Tally;
  seeded: Shortened[];
  exitCode: number | null;
  loadMs: number;
  /** performance.now() when the signal was sent. */
  signalledAt: number;
  stored: { code: string; original_url: string; clicks: number }[];
  /** The url database, on DATABASE_URL's server. */
  urlDatabase: string;
}

async function stopUnderLoad(signal: "SIGTERM" | "SIGKILL"): Promise<Outcome> {
  const prefix = `${basePrefix}${signal.toLowerCase()}_`;
  const dataDir = tempDataDir("stop-under-load-");
  dataDirs.push(dataDir);
  const app = await startApp({ DATA_DIR: dataDir, DATABASE_NAME_PREFIX: prefix, CLICK_FLUSH_INTERVAL_MS: String(flushIntervalMs), ...shortenLimitsOff });
  const seeded = await seedLinks(app, 30, `stop-${signal}`);
  const codes = seeded.map((s) => s.code);

  const tally = new Tally();
  let phase = "up";
  let serial = 0;
  const load = runClients(clients, async () => {
    const at = phase;
    if (Math.random() < 0.8) {
      const code = pick(codes);
      const answer = await lookUp(app, code);
      tally.add("lookup", at, answer);
      if (answer.status === 200) tally.click(code, answer.human);
    } else {
      const url = `https://example.com/stop-load/${signal}/${serial++}`;
      const answer = await shorten(app, url);
      tally.add("shorten", at, answer);
      if (answer.code) tally.shortened.push({ code: answer.code, url });
    }
    // Refused once the app is gone: no need to spin on a closed port.
    if (phase === "stopped") await sleep(20);
  });
  await sleep(3000);
  phase = "stopping";
  const signalledAt = performance.now();
  const exitCode = await app.stop(signal);
  phase = "stopped";
  await sleep(200); // answers still on their way are counted
  await load.stop();
  const loadMs = signalledAt - load.startedAt;

  const stored = await queryDatabase<{ code: string; original_url: string; clicks: number }>(
    process.env.DATABASE_URL!,
    `${prefix}url`,
    "SELECT code, original_url, clicks FROM urls",
  );
  return { tally, seeded, exitCode, loadMs, signalledAt, stored, urlDatabase: `${prefix}url` };
}

function lostLinks({ seeded, tally, stored }: Outcome): Shortened[] {
  const storedUrls = new Map(stored.map((r) => [r.code, r.original_url]));
  return [...seeded, ...tally.shortened].filter((s) => storedUrls.get(s.code) !== s.url);
}

const storedClicks = (stored: Outcome["stored"]) => Object.fromEntries(stored.filter((r) => r.clicks > 0).map((r) => [r.code, r.clicks]));

test("SIGTERM under load: zero answered clicks lost, zero acknowledged links lost", async () => {
  const outcome = await stopUnderLoad("SIGTERM");
  const { tally, exitCode, stored } = outcome;
  expect(exitCode).toBe(0);
  // While draining the app answers what it accepted; after, connections are refused.
  expect(tally.unexpected([200, 503, "no answer"])).toEqual({});
  expect(tally.count((_, at, status) => at === "up" && status !== "200")).toBe(0);
  expect(lostLinks(outcome)).toEqual([]);
  expect(storedClicks(stored)).toEqual(Object.fromEntries(tally.clicks));
  await expectClickAnalytics(process.env.DATABASE_URL!, outcome.urlDatabase, tally, { exact: true });

  const up = tally.count((_, at) => at === "up");
  summary("SIGTERM under load", {
    "load held": `${up} requests, ${rps(up, outcome.loadMs)} rps, ${clients} clients`,
    "faults survived": `SIGTERM mid-load, exit code ${exitCode}`,
    "answered clicks": `${tally.totalClicks} (${tally.totalHumanClicks} as browsers)`,
    "acknowledged links": outcome.seeded.length + tally.shortened.length,
    lost: lostLinks(outcome).length + Math.abs(tally.totalClicks - stored.reduce((n, r) => n + r.clicks, 0)),
  });
}, 120_000);

test("SIGKILL under load: zero acknowledged links lost, clicks lost at most one flush interval's worth", async () => {
  const outcome = await stopUnderLoad("SIGKILL");
  const { tally, stored, signalledAt } = outcome;
  expect(tally.unexpected([200, "no answer"])).toEqual({});
  expect(lostLinks(outcome)).toEqual([]);

  // Never more stored than answered, for any link.
  const overCounted = stored.filter((r) => r.clicks > (tally.clicks.get(r.code) ?? 0)).map((r) => r.code);
  expect(overCounted).toEqual([]);
  const storedTotal = stored.reduce((n, r) => n + r.clicks, 0);
  const lostClicks = tally.totalClicks - storedTotal;
  // What the counter can hold at the kill: the clicks answered in the last interval, and
  // those of a flush still writing.
  const windowStart = signalledAt - flushIntervalMs - flushWriteMs;
  const inLastWindow = tally.clickTimes.filter((t) => t >= windowStart).length;
  const perInterval = Math.round((tally.totalClicks * flushIntervalMs) / outcome.loadMs);
  expect(lostClicks).toBeLessThanOrEqual(inLastWindow);
  await expectClickAnalytics(process.env.DATABASE_URL!, outcome.urlDatabase, tally, { exact: false });

  summary("SIGKILL under load", {
    "load held": `${tally.count((_, at) => at === "up")} requests, ${rps(tally.count((_, at) => at === "up"), outcome.loadMs)} rps, ${clients} clients`,
    "faults survived": "SIGKILL mid-load",
    "answered clicks": tally.totalClicks,
    "acknowledged links": outcome.seeded.length + tally.shortened.length,
    "links lost": lostLinks(outcome).length,
    "SIGKILL clicks lost": `${lostClicks} (one ${flushIntervalMs} ms flush interval is ~${perInterval} clicks at this rate; bound ${inLastWindow}: clicks answered in the last ${flushIntervalMs + flushWriteMs} ms)`,
  });
}, 120_000);
