// NATS JetStream crashes and comes back while clients shorten links and look them up:
// shortens are still acknowledged (their events wait in the outbox), and afterwards the
// url-shortened event of every acknowledged link reaches analytics and is counted once.
import { rmSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, expect, test } from "vitest";
import { dropServerDatabases, startApp } from "../support/app-process.ts";
import { tempDataDir } from "../../runtime/vitest/temp-dir.ts";
import { lookUp, pick, rps, runClients, seedLinks, send, shorten, shortenLimitsOff, summary, Tally } from "./load.ts";
import { startNatsServer, type NatsServer } from "./nats-server.ts";
import { queryDatabase } from "./query.ts";

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}natsfault_`;
const storeDir = tempDataDir("nats-fault-store-");
const dataDir = tempDataDir("nats-fault-data-");
let nats: NatsServer | undefined;

afterAll(async () => {
  await nats?.stop();
  await dropServerDatabases(prefix);
  rmSync(storeDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

const clients = 8;
const downMs = 6_000;
/** A failed relay arms a sweep of rows older than 10 s, again every 5 s while rows are left: room for several on a loaded machine. */
const deliveredWithinMs = 60_000;

test("NATS down for 6 s under load: shortens acknowledged, and every acknowledged link's event counted exactly once", async () => {
  nats = await startNatsServer(storeDir);
  const app = await startApp({ DATA_DIR: dataDir, DATABASE_NAME_PREFIX: prefix, NATS_URL: nats.url, ...shortenLimitsOff });
  let exited = false;
  app.child.once("exit", () => (exited = true));
  const seeded = await seedLinks(app, 20, "nats-seed");
  const codes = seeded.map((s) => s.code);

  const tally = new Tally();
  let phase = "up";
  let serial = 0;
  const load = runClients(clients, async () => {
    const at = phase;
    if (Math.random() < 0.5) {
      const code = pick(codes);
      const answer = await lookUp(app, code);
      tally.add("lookup", at, answer);
      if (answer.status === 200) tally.click(code, answer.human);
    } else {
      const url = `https://example.com/nats-load/${serial++}`;
      const answer = await shorten(app, url);
      tally.add("shorten", at, answer);
      if (answer.code) tally.shortened.push({ code: answer.code, url });
    }
  });
  await sleep(2000);
  await nats.kill();
  phase = "down";
  await sleep(downMs);
  await nats.restart();
  phase = "back";
  await sleep(3000);
  await load.stop();
  const loadMs = performance.now() - load.startedAt;

  // Pub/sub down is no reason to refuse a shorten: its event waits in the outbox.
  expect(tally.unexpected([200])).toEqual({});
  expect(tally.count((kind, at) => kind === "shorten" && at === "down")).toBeGreaterThan(0);

  const acknowledged = seeded.length + tally.shortened.length;
  const countedByAnalytics = async () => {
    const { body } = await send(app, "/analytics/daily");
    return (JSON.parse(body!) as { days: { urlsCreated: number }[] }).days.reduce((n, d) => n + d.urlsCreated, 0);
  };
  let counted = await countedByAnalytics();
  const waitStarted = performance.now();
  for (const deadline = Date.now() + deliveredWithinMs; counted < acknowledged && Date.now() < deadline; await sleep(500)) {
    counted = await countedByAnalytics();
  }
  const deliveredAfterMs = performance.now() - waitStarted;
  // Late duplicates would only show after a further sweep: wait for one before the final count.
  await sleep(6000);
  counted = await countedByAnalytics();

  const serverUrl = process.env.DATABASE_URL!;
  const [{ n: processed }] = (await queryDatabase<{ n: number }>(serverUrl, `${prefix}analytics`, "SELECT count(*)::int AS n FROM processed_events")) as [{ n: number }];
  const stored = await queryDatabase<{ code: string; original_url: string }>(serverUrl, `${prefix}url`, "SELECT code, original_url FROM urls");
  const storedUrls = new Map(stored.map((r) => [r.code, r.original_url]));
  const lost = [...seeded, ...tally.shortened].filter((s) => storedUrls.get(s.code) !== s.url);

  const crashed = exited;
  const exitCode = await app.stop();
  // The figures first: a run that fails shows what it saw.
  summary("NATS restart", {
    "load held": `${tally.requests} requests, ${rps(tally.requests, loadMs)} rps, ${clients} clients`,
    "faults survived": `nats-server killed, down ${downMs / 1000} s, restarted; ${tally.count((k, at) => k === "shorten" && at === "down")} shortens acknowledged while down`,
    "events counted": `${counted} of ${acknowledged} acknowledged links (all within ${Math.round(deliveredAfterMs / 1000)} s after the load)`,
    "counted twice": Math.max(0, counted - acknowledged),
    lost: lost.length + Math.max(0, acknowledged - counted),
  });
  expect(crashed).toBe(false);
  expect(exitCode).toBe(0);
  expect(lost).toEqual([]);
  expect(stored.length).toBe(acknowledged);
  expect({ counted, processed }).toEqual({ counted: acknowledged, processed: acknowledged });
}, 150_000);
