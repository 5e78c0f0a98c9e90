// Operating the image: a rolling upgrade from the previous release under load, and a
// backup restored into new databases. Two replicas behind the proxy serve clicks without
// a pause while each is replaced in turn by this tree's image; the first new one migrates
// the previous release's databases, the second finds nothing to do, and no request fails
// or click goes missing. Then pg_dump of every database, pg_restore into databases of
// another name, and a replica on those answers the same links, clicks and analytics.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { dropDatabasesWithPrefix } from "../../runtime/test/databases.ts";
import { createVolume, docker, logsOf, removeAll, startReplica, stopReplica, type Replica } from "./support/docker.ts";
import { clickLoad } from "./support/load.ts";
import { startProxy, type Proxy } from "./support/nginx.ts";
import { backUp, databasesWithPrefix, restore } from "./support/pg-backup.ts";
import { freePort, replicaEnv, services } from "./support/setting.ts";

const { current, previous } = inject("dockerImages");
const s = services();
const prefix = "docker_upgrade_";
const restoredPrefix = "docker_restored_";
const volume = "url-shortener-test-upgrade-data";
const names = ["url-shortener-test-old-a", "url-shortener-test-old-b", "url-shortener-test-new-a", "url-shortener-test-new-b", "url-shortener-test-restored"];

let proxy: Proxy;
let env: Record<string, string>;
let ports: number[];
const codes: string[] = [];

beforeAll(async () => {
  await removeAll(names, [volume]);
  await dropDatabasesWithPrefix(s.databaseUrl, prefix);
  await dropDatabasesWithPrefix(s.databaseUrl, restoredPrefix);
  await createVolume(volume, current);
  ports = [await freePort(), await freePort(), await freePort()];
  env = replicaEnv(s, prefix, `http://127.0.0.1:${ports[0]}`);
}, 60_000);

afterAll(async () => {
  await proxy?.stop();
  await removeAll(names, [volume]);
  await dropDatabasesWithPrefix(s.databaseUrl, prefix);
  await dropDatabasesWithPrefix(s.databaseUrl, restoredPrefix);
});

async function statsOf(at: string, code: string): Promise<{ clicks: number }> {
  const res = await fetch(`${at}/${code}/stats`);
  expect(res.status).toBe(200);
  return (await res.json()) as { clicks: number };
}

async function analyticsTotals(at: string, code: string): Promise<unknown> {
  const res = await fetch(`${at}/${code}/analytics`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { totals: unknown }).totals;
}

/** Stops `old` (SIGTERM: it drains and writes its clicks) and starts `image` in its place: its port and host name. */
async function replace(old: Replica, hostname: string, name: string, image: string): Promise<Replica> {
  expect(await stopReplica(old.name)).toBe(0);
  return startReplica({ image, name, hostname, port: old.port, volume, env });
}

describe("a rolling upgrade from the previous release", () => {
  test("under load, replicas replaced one at a time: no failed request, every click counted once, migrations run once", async () => {
    const oldA = await startReplica({ image: previous, name: names[0]!, hostname: "replica-a", port: ports[1]!, volume, env });
    const oldB = await startReplica({ image: previous, name: names[1]!, hostname: "replica-b", port: ports[2]!, volume, env });
    proxy = await startProxy(ports[0]!, [ports[1]!, ports[2]!]);

    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${proxy.url}/shorten`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: `https://example.com/upgrade/${i}` }) });
      expect(res.status).toBe(200);
      codes.push(((await res.json()) as { code: string }).code);
    }

    const load = clickLoad(proxy.url, codes);
    await sleep(3000);
    const newA = await replace(oldA, "replica-a", names[2]!, current);
    await sleep(3000);
    const newB = await replace(oldB, "replica-b", names[3]!, current);
    await sleep(3000);
    const tally = await load.stop();

    expect(tally.failures).toEqual([]);
    const answered = [...tally.clicks.values()].reduce((sum, n) => sum + n, 0);
    console.log(`rolling upgrade: ${answered} clicks answered, ${tally.failures.length} failed`);
    expect(answered).toBe(tally.sent);
    // Each replica writes its clicks within 100 ms; a stats read adds the reading replica's unwritten ones.
    await sleep(500);
    for (const code of codes) expect((await statsOf(proxy.url, code)).clicks, code).toBe(tally.clicks.get(code));

    // The previous release's databases lacked this tree's migrations: the first new replica applied them, the second none.
    const [logA, logB] = [await logsOf(newA.name), await logsOf(newB.name)];
    expect(logA).toMatch(/"migrations applied"/);
    expect(logB).not.toMatch(/"migrations applied"/);
  }, 240_000);
});

describe("backup and restore", () => {
  test("pg_dump of every database, restored under other names, serves the same links, clicks and analytics", async () => {
    expect(codes.length).toBe(5);
    const before = new Map<string, { clicks: number; totals: unknown }>();
    for (const code of codes) before.set(code, { clicks: (await statsOf(proxy.url, code)).clicks, totals: await analyticsTotals(proxy.url, code) });

    const databases = await databasesWithPrefix(s.databaseUrl, prefix);
    expect(databases.map((name) => name.slice(prefix.length))).toEqual(expect.arrayContaining(["url", "users", "analytics"]));
    const dumps = await backUp(s.databaseUrl, databases);
    await restore(s.databaseUrl, dumps, (name) => restoredPrefix + name.slice(prefix.length));

    const restoredEnv = { ...env, DATABASE_NAME_PREFIX: restoredPrefix, CRON: "off" };
    const restored = await startReplica({ image: current, name: names[4]!, hostname: "replica-restored", port: await freePort(), volume, env: restoredEnv });
    // Nothing left to migrate: the backup holds the migrated schema.
    expect(await logsOf(restored.name)).not.toMatch(/"migrations applied"/);
    for (const code of codes) {
      expect((await statsOf(restored.url, code)).clicks, code).toBe(before.get(code)!.clicks);
      expect(await analyticsTotals(restored.url, code), code).toEqual(before.get(code)!.totals);
      const res = await fetch(`${restored.url}/${code}`, { redirect: "manual", headers: { accept: "text/html", "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/145.0" } });
      expect(res.headers.get("location")).toMatch(/^https:\/\/example\.com\/upgrade\/\d$/);
    }
    await docker("stop", restored.name);
  }, 180_000);
});
