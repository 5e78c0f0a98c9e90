import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { refusedConnection } from "../../test/closed-port.ts";
import { config } from "../config/mod.ts";
import type { SqlDriver } from "../sql/driver.ts";
import { openDatabase, physicalName } from "../sql/databases.ts";
import { PostgresDriver } from "../sql/postgres-driver.ts";
import { CronStore } from "./run-store.ts";
import { CronScheduler, type ScheduledJob } from "./scheduler.ts";
import { cronDatabaseName } from "./schema.ts";

const silent = { info: () => {}, error: () => {} };
const minute = 60_000;

/** A clock tests move by hand. */
function manualClock(iso: string) {
  let t = new Date(iso).getTime();
  return { now: () => new Date(t), advance: (ms: number) => (t += ms), set: (when: string) => (t = new Date(when).getTime()) };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

let primary: SqlDriver;
/** A second pool on the same database, as another instance would have. */
let secondary: SqlDriver;

beforeAll(async () => {
  primary = await openDatabase(cronDatabaseName);
  secondary = await PostgresDriver.open(config().databaseUrl!, physicalName(cronDatabaseName));
});

afterAll(async () => {
  if (secondary !== primary) await secondary.close();
});

let jobCounter = 0;
/** A job name no other test uses, so tests share the database without seeing each other's runs. */
function freshJob(schedule: ScheduledJob["schedule"] = { kind: "every", minutes: 1 }): ScheduledJob {
  return { name: `job-${++jobCounter}`, schedule };
}

function schedulerFor(
  job: ScheduledJob,
  clock: ReturnType<typeof manualClock>,
  runJob: () => Promise<unknown>,
  driver: SqlDriver = primary,
  instance = "a",
) {
  const store = new CronStore(driver, { staleAfterMs: minute });
  return { store, scheduler: new CronScheduler({ jobs: [job], store, runJob, log: silent, clock, instance }) };
}

async function registered(job: ScheduledJob, clock: ReturnType<typeof manualClock>): Promise<void> {
  const store = new CronStore(primary, { staleAfterMs: minute });
  await store.migrate();
  await store.register([job.name], clock.now());
}

describe("the cron scheduler", () => {
  test("two instances sharing a database run each tick exactly once", async () => {
    const job = freshJob();
    const clock = manualClock("2026-11-21T10:00:30Z");
    await registered(job, clock);
    let calls = 0;
    const runJob = async () => void calls++;
    const a = schedulerFor(job, clock, runJob, primary, "a").scheduler;
    const b = schedulerFor(job, clock, runJob, secondary, "b").scheduler;
    for (let i = 1; i <= 20; i++) {
      clock.advance(minute);
      const [fromA, fromB] = await Promise.all([a.runDue(), b.runDue()]);
      const claims = [...fromA, ...fromB].map((r) => r.claim).sort();
      expect(claims).toEqual(["claimed", "taken"]);
    }
    expect(calls).toBe(20);
    const runs = await new CronStore(primary, { staleAfterMs: minute }).runsOf(job.name);
    expect(runs.map((r) => r.outcome)).toEqual(Array(20).fill("succeeded"));
    expect(new Set(runs.map((r) => r.tick.getTime())).size).toBe(20);
  });

  test("a tick that comes while the previous run is still going is skipped, on any instance", async () => {
    const job = freshJob();
    const clock = manualClock("2026-11-21T10:00:30Z");
    await registered(job, clock);
    const release = deferred();
    let calls = 0;
    const runJob = async () => {
      calls++;
      await release.promise;
      return "done";
    };
    const a = schedulerFor(job, clock, runJob, primary, "a").scheduler;
    const b = schedulerFor(job, clock, runJob, secondary, "b").scheduler;
    clock.set("2026-11-21T10:01:00Z");
    const first = a.runDue();
    await expect.poll(() => calls).toBe(1);
    clock.set("2026-11-21T10:02:00Z");
    const [second] = await b.runDue();
    expect(second).toMatchObject({ claim: "overlap", running: { instance: "a", outcome: "running" } });
    const manual = await b.runNow(job.name);
    expect(manual.claim).toBe("overlap");
    release.resolve();
    const [done] = await first;
    expect(done).toMatchObject({ claim: "claimed", result: "done", run: { outcome: "succeeded" } });
    expect(calls).toBe(1);
    const runs = await new CronStore(primary, { staleAfterMs: minute }).runsOf(job.name);
    expect(runs.map((r) => [r.tick.toISOString(), r.outcome])).toEqual([
      ["2026-11-21T10:01:00.000Z", "succeeded"],
      ["2026-11-21T10:02:00.000Z", "skipped"],
    ]);
    // Free again: the next tick runs.
    clock.set("2026-11-21T10:03:00Z");
    expect((await b.runDue())[0]?.claim).toBe("claimed");
  });

  test("a run whose instance died (no heartbeat) is marked abandoned, and the next tick runs", async () => {
    const job = freshJob();
    const clock = manualClock("2026-11-21T10:00:30Z");
    await registered(job, clock);
    const a = schedulerFor(job, clock, () => new Promise(() => {}), primary, "a").scheduler; // never ends
    clock.set("2026-11-21T10:01:00Z");
    void a.runDue();
    const store = new CronStore(primary, { staleAfterMs: minute });
    await expect.poll(async () => (await store.runsOf(job.name)).length).toBe(1);
    // Heartbeats are every 10 s in real time; by the manual clock, none came for two minutes.
    clock.set("2026-11-21T10:03:00Z");
    const b = schedulerFor(job, clock, async () => "ok", secondary, "b").scheduler;
    const [next] = await b.runDue();
    expect(next).toMatchObject({ claim: "claimed", run: { outcome: "succeeded", instance: "b" } });
    const runs = await store.runsOf(job.name);
    expect(runs[0]).toMatchObject({ outcome: "abandoned", instance: "a" });
    expect(runs[0]!.error).toMatch(/stopped sending heartbeats/);
  });

  test("after downtime only the latest missed tick runs; ticks before the first start never do", async () => {
    const job = freshJob({ kind: "cron", expression: "0 3 * * *" });
    const clock = manualClock("2026-11-21T10:00:00Z");
    let calls = 0;
    const { scheduler, store } = schedulerFor(job, clock, async () => void calls++);
    await store.migrate();
    await store.register([job.name], clock.now());
    expect((await scheduler.runDue())[0]?.claim).toBe("before-first-start"); // today's 03:00 was before
    // Every instance down from the 21st until the 25th at 10:00: the 22nd to 25th were missed.
    clock.set("2026-11-25T10:00:00Z");
    const restarted = schedulerFor(job, clock, async () => void calls++).scheduler;
    const [caughtUp] = await restarted.runDue();
    expect(caughtUp).toMatchObject({ claim: "claimed", tick: new Date("2026-11-25T03:00:00Z") });
    expect(calls).toBe(1);
    expect(await restarted.runDue()).toEqual([]); // settled until the next tick
  });

  test("a failing job is recorded with its error, and the next tick runs normally", async () => {
    const job = freshJob();
    const clock = manualClock("2026-11-21T10:00:30Z");
    await registered(job, clock);
    let fail = true;
    const { scheduler, store } = schedulerFor(job, clock, async () => {
      if (fail) throw new Error("disk full", { cause: new Error("ENOSPC") });
    });
    clock.set("2026-11-21T10:01:00Z");
    expect((await scheduler.runDue())[0]?.run).toMatchObject({ outcome: "failed", error: "disk full: ENOSPC" });
    fail = false;
    clock.set("2026-11-21T10:02:00Z");
    expect((await scheduler.runDue())[0]?.run?.outcome).toBe("succeeded");
    const latest = (await store.latestRuns()).get(job.name);
    expect(latest).toMatchObject({ outcome: "succeeded", tick: new Date("2026-11-21T10:02:00Z") });
  });

  test("stopping records a run still going as failed, so no instance waits for it", async () => {
    const job = freshJob();
    const clock = manualClock("2026-11-21T10:00:30Z");
    await registered(job, clock);
    const { scheduler, store } = schedulerFor(job, clock, () => new Promise(() => {}));
    clock.set("2026-11-21T10:01:00Z");
    void scheduler.runDue();
    await expect.poll(async () => (await store.runsOf(job.name))[0]?.outcome).toBe("running");
    await scheduler.stop(50);
    expect((await store.runsOf(job.name))[0]).toMatchObject({ outcome: "failed", error: expect.stringMatching(/stopped/) });
    clock.set("2026-11-21T10:02:00Z");
    const other = schedulerFor(job, clock, async () => "ok", secondary, "b").scheduler;
    expect((await other.runDue())[0]?.claim).toBe("claimed");
  });

  test("once started, it wakes up by itself at the next tick and runs the job", async () => {
    const job = freshJob({ kind: "every", minutes: 1 });
    const store = new CronStore(primary, { staleAfterMs: minute });
    await store.migrate(); // the slow part of start(), done before the clock is set
    // A clock running 5 s before a minute boundary, so the real timer has a tick to wait for. With
    // only 1 s, a start() slowed by a loaded machine (its migrate and register) once registered the
    // job after the boundary had passed, and the next tick was a minute away.
    const offset = Math.ceil(Date.now() / minute) * minute + minute - 5_000 - Date.now();
    const clock = { now: () => new Date(Date.now() + offset) };
    let ranAt: Date | undefined;
    const scheduler = new CronScheduler({ jobs: [job], store, runJob: async () => void (ranAt = clock.now()), log: silent, clock });
    await scheduler.start();
    try {
      await expect.poll(() => ranAt, { timeout: 15_000 }).toBeDefined();
      expect(ranAt!.getTime() % minute).toBeLessThan(2_000); // at the tick, not at start-up (59 s past one)
      await expect.poll(async () => (await store.runsOf(job.name)).map((r) => r.outcome)).toEqual(["succeeded"]);
    } finally {
      await scheduler.stop(1_000);
    }
  });

  test("a tick whose claim fails while the database is away is claimed again soon, by itself, and runs once it is back", async () => {
    const job = freshJob({ kind: "every", minutes: 1 });
    const refused = await refusedConnection();
    let away = false;
    let refusedClaims = 0;
    // Statements fail as they do while the server is stopped, with the error node-postgres gives then.
    const flaky: SqlDriver = {
      query: (text, params) => (away ? Promise.reject(refused) : primary.query(text, params)),
      execScript: (sql) => (away ? Promise.reject(refused) : primary.execScript(sql)),
      begin: () => (away ? (refusedClaims++, Promise.reject(refused)) : primary.begin()),
      acquire: () => (away ? Promise.reject(refused) : primary.acquire()),
      close: async () => {},
    };
    const store = new CronStore(flaky, { staleAfterMs: minute });
    await store.migrate();
    // A second before a minute boundary, so the tick comes while the database is away.
    const offset = Math.ceil(Date.now() / minute) * minute + minute - 1_000 - Date.now();
    const clock = { now: () => new Date(Date.now() + offset) };
    const runs: Date[] = [];
    const scheduler = new CronScheduler({ jobs: [job], store, runJob: async () => void runs.push(clock.now()), log: silent, clock, retryMs: 200 });
    await scheduler.start();
    try {
      away = true;
      await expect.poll(() => refusedClaims, { timeout: 5_000 }).toBeGreaterThanOrEqual(1);
      await new Promise((r) => setTimeout(r, 1_000));
      expect(refusedClaims).toBeLessThanOrEqual(8); // about one per 200 ms, not a busy loop
      expect(runs).toEqual([]);
      away = false;
      await expect.poll(() => runs.length, { timeout: 5_000 }).toBe(1);
      await expect.poll(async () => (await store.runsOf(job.name)).map((r) => [r.outcome, r.tick.getTime() % minute])).toEqual([["succeeded", 0]]);
    } finally {
      away = false;
      await scheduler.stop(1_000);
    }
  });

  test("status shows the next tick and the last run", async () => {
    const job = freshJob({ kind: "cron", expression: "0 8 * * *" });
    const clock = manualClock("2026-11-21T09:00:00Z");
    await registered(job, clock);
    const { scheduler } = schedulerFor(job, clock, async () => ({ ok: true }));
    expect(await scheduler.status()).toEqual([
      { name: job.name, title: null, schedule: "0 8 * * *", nextTick: new Date("2026-11-22T08:00:00Z"), lastRun: null },
    ]);
    const manual = await scheduler.runNow(job.name);
    expect(manual).toMatchObject({ claim: "claimed", result: { ok: true }, run: { trigger: "manual" } });
    expect((await scheduler.status())[0]?.lastRun).toMatchObject({ trigger: "manual", outcome: "succeeded" });
  });
});
