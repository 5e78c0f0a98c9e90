// The database is down while 8 clients click cached links, and then the app dies: a
// SIGKILL, or a SIGTERM that runs past its deadline because the database stays down.
// The answered clicks the app could not write are in its click journal on disk; the next
// start, with the database back, stores them. SIGTERM: every answered click stored,
// exactly, analytics included. SIGKILL: none stored twice, at most the clicks of one flush
// interval lost, and each analytics dimension sums to a link's stored clicks.
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, expect, test } from "vitest";
import { startCluster, stopCluster } from "../../runtime/internal/sql/embedded/cluster.ts";
import { startApp, type RunningApp } from "../support/app-process.ts";
import { tempDataDir } from "../../runtime/vitest/temp-dir.ts";
import { expectClickAnalytics } from "./click-analytics.ts";
import { lookUp, pick, rps, runClients, seedLinks, send, shortenLimitsOff, summary, Tally } from "./load.ts";
import { queryDatabase } from "./query.ts";

const dataDirs: string[] = [];
afterAll(async () => {
  for (const dir of dataDirs) {
    await stopCluster(path.join(dir, "postgres"));
    rmSync(dir, { recursive: true, force: true });
  }
});

const clients = 8;
/** The default CLICK_FLUSH_INTERVAL_MS: what a SIGKILL may cost is measured at what runs by default. */
const flushIntervalMs = 100;
/** An append to the journal still being fsynced at the kill is lost too: room for it on a loaded machine. */
const appendMs = 500;
const downBeforeSignalMs = 5000;

interface Outcome {
  tally: Tally;
  exitCode: number | null;
  signalledAt: number;
  loadMs: number;
  stoppedOutput: string;
  replayOutput: string;
  stored: Map<string, number>;
  journalsLeft: string[];
  /** The case's embedded cluster, stopped or not: startCluster gives its address. */
  clusterDir: string;
}

async function dieDuringOutage(signal: "SIGTERM" | "SIGKILL"): Promise<Outcome> {
  const dataDir = tempDataDir(`outage-${signal.toLowerCase()}-`);
  dataDirs.push(dataDir);
  const clusterDir = path.join(dataDir, "postgres");
  const env = {
    // The embedded cluster is this case's own, so stopping it disturbs no other test.
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    DATABASE_NAME_PREFIX: "",
    DATABASE_CONNECT_TIMEOUT_MS: "1000",
    CLICK_FLUSH_INTERVAL_MS: String(flushIntervalMs),
    ...shortenLimitsOff,
  };
  const app = await startApp(env);
  const codes = (await seedLinks(app, 20, `outage-${signal}`)).map((s) => s.code);
  for (const code of codes) expect((await send(app, `/${code}`, { method: "HEAD" })).status).toBe(200); // cached, no click

  const tally = new Tally();
  let phase = "up";
  const load = runClients(clients, async () => {
    const at = phase;
    const code = pick(codes);
    const answer = await lookUp(app, code);
    tally.add("cached lookup", at, answer);
    if (answer.status === 200) tally.click(code, answer.human);
    if (phase === "stopped") await sleep(20); // refused once the app is gone: no need to spin
  });
  await sleep(2000);
  phase = "down";
  await stopCluster(clusterDir);
  await sleep(downBeforeSignalMs);
  phase = "stopping";
  const signalledAt = performance.now();
  const exitCode = await app.stop(signal);
  phase = "stopped";
  await sleep(200); // answers still on their way are counted
  await load.stop();
  const loadMs = signalledAt - load.startedAt;

  const { url: serverUrl } = await startCluster({ dir: clusterDir });
  const next = await startApp(env); // the same DATA_DIR: the same journal folder
  await whenReplayed(next);
  const rows = await queryDatabase<{ code: string; clicks: number }>(serverUrl, "url", "SELECT code, clicks FROM urls");
  expect(await next.stop()).toBe(0);
  return {
    tally,
    exitCode,
    signalledAt,
    loadMs,
    stoppedOutput: app.output(),
    replayOutput: next.output(),
    stored: new Map(rows.filter((r) => r.clicks > 0).map((r) => [r.code, r.clicks])),
    journalsLeft: readdirSync(path.join(dataDir, "click-journal")).filter((f) => f.endsWith(".journal")),
    clusterDir,
  };
}

async function whenReplayed(app: RunningApp): Promise<void> {
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await sleep(100)) {
    if (/stored \d+ clicks from the journal/.test(app.output())) return;
  }
  throw new Error(`the next start stored nothing from the journal:\n${app.output()}`);
}

/** Requests sent before the signal, and their rate. */
function held({ tally, loadMs }: Outcome): string {
  const before = tally.count((_, at) => at === "up" || at === "down");
  return `${before} requests, ${rps(before, loadMs)} rps, ${clients} clients`;
}

const total = (clicks: Map<string, number>) => [...clicks.values()].reduce((a, b) => a + b, 0);

test("SIGTERM past its deadline during a database outage: every answered click is in the journal, and the next start stores it, exactly", async () => {
  const outcome = await dieDuringOutage("SIGTERM");
  const { tally, stored } = outcome;
  // Cached links answered throughout; after the signal, connections are refused.
  expect(tally.unexpected([200, "no answer"])).toEqual({});
  expect(tally.count((_, at, status) => at !== "stopped" && at !== "stopping" && status !== "200")).toBe(0);
  expect(tally.count((_, at) => at === "down")).toBeGreaterThan(0);
  expect(outcome.stoppedOutput).toMatch(/clicks left in the click journal: the database could not be written before the stop deadline/);
  expect(outcome.stoppedOutput).not.toMatch(/clicks lost/);
  expect(Object.fromEntries(stored)).toEqual(Object.fromEntries(tally.clicks));
  expect(outcome.journalsLeft).toEqual([]);
  await expectClickAnalytics((await startCluster({ dir: outcome.clusterDir })).url, "url", tally, { exact: true });

  summary("SIGTERM past its deadline during an outage", {
    "load held": held(outcome),
    "faults survived": `PostgreSQL stopped, ${downBeforeSignalMs / 1000} s later SIGTERM (exit code ${outcome.exitCode} after the 8 s retries), the next start with PostgreSQL back`,
    "answered clicks": `${tally.totalClicks} (${tally.totalHumanClicks} as browsers)`,
    "answered while down": tally.count((_, at, status) => at === "down" && status === "200"),
    lost: Math.abs(tally.totalClicks - total(stored)),
  });
}, 150_000);

test("SIGKILL during a database outage: the next start stores the journal; nothing twice, at most one flush interval lost", async () => {
  const outcome = await dieDuringOutage("SIGKILL");
  const { tally, stored, signalledAt } = outcome;
  expect(tally.unexpected([200, "no answer"])).toEqual({});
  expect(tally.count((_, at) => at === "down")).toBeGreaterThan(0);
  const overCounted = [...stored].filter(([code, n]) => n > (tally.clicks.get(code) ?? 0)).map(([code]) => code);
  expect(overCounted).toEqual([]);
  const lost = tally.totalClicks - total(stored);
  // What the counter can hold outside the journal at the kill: the clicks of the last
  // interval, and those of an append still being written.
  const windowStart = signalledAt - flushIntervalMs - appendMs;
  const inLastWindow = tally.clickTimes.filter((t) => t >= windowStart).length;
  const perInterval = Math.round((tally.totalClicks * flushIntervalMs) / outcome.loadMs);
  expect(lost).toBeGreaterThanOrEqual(0);
  expect(lost).toBeLessThanOrEqual(inLastWindow);
  expect(outcome.journalsLeft).toEqual([]);
  await expectClickAnalytics((await startCluster({ dir: outcome.clusterDir })).url, "url", tally, { exact: false });

  summary("SIGKILL during an outage", {
    "load held": held(outcome),
    "faults survived": `PostgreSQL stopped, ${downBeforeSignalMs / 1000} s later SIGKILL, the next start with PostgreSQL back`,
    "answered clicks": tally.totalClicks,
    "answered while down": tally.count((_, at, status) => at === "down" && status === "200"),
    "clicks lost": `${lost} (one ${flushIntervalMs} ms flush interval is ~${perInterval} clicks at this rate; bound ${inLastWindow}: clicks answered in the last ${flushIntervalMs + appendMs} ms)`,
  });
}, 150_000);
