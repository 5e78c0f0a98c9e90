import { hostname } from "node:os";
import type { CronSchedule } from "../meta/types.ts";
import { meter } from "../metrics/mod.ts";
import { recorder } from "../tracing/mod.ts";
import type { Claim, CronStore, RunRecord } from "./run-store.ts";
import { describeSchedule, latestTick, nextTick } from "./ticks.ts";

export interface ScheduledJob {
  readonly name: string;
  readonly title?: string | null;
  readonly schedule: CronSchedule;
  /** The endpoint it calls: its service is the service of the run's trace. */
  readonly endpoint?: { readonly service: string; readonly name: string };
}

/** A job as operators see it: when it runs next, and how its last run went. */
export interface JobStatus {
  readonly name: string;
  readonly title: string | null;
  /** "0 3 * * *" or "every 30m". */
  readonly schedule: string;
  readonly nextTick: Date;
  readonly lastRun: RunRecord | null;
}

/** Time as the scheduler sees it; tests pass their own. */
export interface CronClock {
  now(): Date;
}

export interface CronLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface SchedulerOptions<J extends ScheduledJob> {
  readonly jobs: readonly J[];
  readonly store: CronStore;
  /** Runs one job (calls its endpoint); its resolved value is the run's result. */
  readonly runJob: (job: J) => Promise<unknown>;
  readonly log: CronLogger;
  readonly clock?: CronClock;
  /** How this instance names itself in cron_run. */
  readonly instance?: string;
  /** How often a run in progress tells other instances it is alive. */
  readonly heartbeatMs?: number;
  /** How soon a claim that failed (database unreachable) is tried again. */
  readonly retryMs?: number;
}

/** What one tick, or one manual run, came to on this instance. */
export interface TickResult {
  readonly job: string;
  readonly tick: Date;
  readonly claim: Claim["kind"];
  /** The run as recorded when it ended (claimed ticks only). */
  readonly run?: RunRecord;
  /** The endpoint's response, when the run succeeded. */
  readonly result?: unknown;
  /** The run in progress that made this tick overlap. */
  readonly running?: RunRecord;
  /** The run's trace, when tracing is on (claimed ticks only). */
  readonly traceId?: string;
}

const systemClock: CronClock = { now: () => new Date() };
// Node runs a longer timer after 1 ms instead; a far tick is reached in steps.
const longestTimerMs = 2 ** 31 - 1;

/**
 * Runs each job at its ticks (UTC). Every instance runs a scheduler; the store
 * lets exactly one of them claim each tick, and none while a run of the same
 * job is still in progress (that tick is recorded as skipped).
 *
 * Missed ticks: when every instance was down at a tick, the most recent missed
 * tick of each job runs once at the next start; older ones are dropped, and
 * ticks from before a job's first start are never run.
 */
export class CronScheduler<J extends ScheduledJob> {
  readonly instance: string;
  readonly #clock: CronClock;
  /** The latest tick this instance has settled, per job: claimed, or found taken. */
  readonly #attempted = new Map<string, number>();
  readonly #running = new Map<number, Promise<TickResult>>();
  readonly #runningRecords = new Map<number, RunRecord>();
  #timer: NodeJS.Timeout | undefined;
  /** Whether start() armed the timer: only then do failed claims schedule their retry. */
  #scheduling = false;
  #stopped = false;

  constructor(private readonly options: SchedulerOptions<J>) {
    this.#clock = options.clock ?? systemClock;
    this.instance = options.instance ?? `${hostname()}/${process.pid}`;
  }

  get jobs(): readonly J[] {
    return this.options.jobs;
  }

  /** Prepares the store, catches up a missed tick, then runs jobs at their ticks. */
  async start(): Promise<void> {
    const { store, jobs } = this.options;
    await store.migrate();
    await store.register(
      jobs.map((j) => j.name),
      this.#clock.now(),
    );
    this.#scheduling = true;
    void this.runDue();
    this.arm();
  }

  /**
   * Claims and runs every job whose latest tick at `now` this instance has not
   * settled yet. Resolves when the runs it started have ended.
   */
  async runDue(now: Date = this.#clock.now()): Promise<TickResult[]> {
    const due = this.options.jobs.flatMap((job) => {
      const tick = latestTick(job.schedule, now);
      return (this.#attempted.get(job.name) ?? -Infinity) < tick.getTime() ? [{ job, tick }] : [];
    });
    const settled = await Promise.allSettled(due.map(({ job, tick }) => this.claimAndRun(job, tick)));
    return settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  }

  /** Runs a job now, outside its schedule (the operators' command); refused while a run is in progress. */
  async runNow(name: string): Promise<TickResult> {
    const job = this.options.jobs.find((j) => j.name === name);
    if (!job) throw new Error(`no cron job "${name}"`);
    const now = this.#clock.now();
    const claim = await this.options.store.claim(job.name, now, "manual", this.instance, now);
    if (claim.kind !== "claimed") return { job: job.name, tick: now, claim: claim.kind, ...overlapOf(claim) };
    return this.execute(job, claim.run);
  }

  /** Each job with its next tick and its latest run. */
  async status(): Promise<JobStatus[]> {
    const now = this.#clock.now();
    const latest = await this.options.store.latestRuns();
    return this.options.jobs.map((j) => ({
      name: j.name,
      title: j.title ?? null,
      schedule: describeSchedule(j.schedule),
      nextTick: nextTick(j.schedule, now),
      lastRun: latest.get(j.name) ?? null,
    }));
  }

  /** The latest `perJob` runs of each job that has run, newest first. */
  recentRuns(perJob: number): Promise<Map<string, RunRecord[]>> {
    return this.options.store.recentRuns(perJob);
  }

  /**
   * Stops scheduling and waits up to `graceMs` for runs in progress. A run that
   * is still going is recorded as failed, so no other instance waits for it.
   */
  async stop(graceMs: number): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    const running = [...this.#running.values()];
    if (running.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.allSettled(running), timeout]);
    clearTimeout(timer);
    const now = this.#clock.now();
    await Promise.allSettled(
      [...this.#runningRecords.values()].map((run) =>
        this.options.store.finish(run, "failed", "its instance stopped before the run finished", now),
      ),
    );
  }

  private async claimAndRun(job: J, tick: Date): Promise<TickResult> {
    // Settled before the claim's round trip, so a wake-up meanwhile does not claim it again.
    this.#attempted.set(job.name, tick.getTime());
    let claim: Claim;
    try {
      claim = await this.options.store.claim(job.name, tick, "schedule", this.instance, this.#clock.now());
    } catch (err) {
      this.#attempted.delete(job.name); // unsettled: tried again within retryMs
      this.options.log.error({ err, job: job.name, tick }, "cron: claiming a tick failed");
      meter?.cronRun(job.name, "claim_failed");
      this.rearm();
      throw err;
    }
    if (claim.kind === "overlap") {
      this.options.log.info({ job: job.name, tick, running: claim.running.id }, "cron tick skipped: the previous run is still in progress");
      meter?.cronRun(job.name, "skipped");
    }
    if (claim.kind !== "claimed") return { job: job.name, tick, claim: claim.kind, ...overlapOf(claim) };
    return this.execute(job, claim.run);
  }

  private execute(job: J, run: RunRecord): Promise<TickResult> {
    const { store, log } = this.options;
    const heartbeat = setInterval(() => {
      store.heartbeat(run.id, this.#clock.now()).catch((err: unknown) => log.error({ err, job: job.name }, "cron heartbeat failed"));
    }, this.options.heartbeatMs ?? 10_000);
    heartbeat.unref();
    const done = (async (): Promise<TickResult> => {
      let outcome: "succeeded" | "failed" = "succeeded";
      let error: string | null = null;
      let result: unknown;
      let traceId: string | undefined;
      try {
        // With tracing on, each run is the root of a trace of its own; its failure is the trace's error.
        result = await (recorder === null
          ? this.options.runJob(job)
          : recorder.cron({ job: job.name, endpoint: job.endpoint ?? null, trigger: run.trigger }, (id) => {
              traceId = id;
              return this.options.runJob(job);
            }));
      } catch (err) {
        outcome = "failed";
        error = describeError(err);
      } finally {
        clearInterval(heartbeat);
      }
      meter?.cronRun(job.name, outcome);
      const ended = await store.finish(run, outcome, error, this.#clock.now());
      const ms = ended.finishedAt!.getTime() - ended.startedAt.getTime();
      if (outcome === "succeeded") log.info({ job: job.name, tick: run.tick, trigger: run.trigger, ms }, `cron job ${job.name} succeeded`);
      else log.error({ job: job.name, tick: run.tick, trigger: run.trigger, ms, error }, `cron job ${job.name} failed`);
      return {
        job: job.name,
        tick: run.tick,
        claim: "claimed",
        run: ended,
        ...(outcome === "succeeded" ? { result } : {}),
        ...(traceId !== undefined && { traceId }),
      };
    })();
    this.#running.set(run.id, done);
    this.#runningRecords.set(run.id, run);
    void done
      .catch(() => {})
      .finally(() => {
        this.#running.delete(run.id);
        this.#runningRecords.delete(run.id);
      });
    return done;
  }

  /**
   * Sets the timer again after a claim failed: the timer was armed while the claim
   * was in flight, when its tick still counted as settled, so it would sleep until
   * the next tick and the failed one would be lost.
   */
  private rearm(): void {
    if (!this.#scheduling || this.#stopped) return;
    clearTimeout(this.#timer);
    this.arm();
  }

  /** Sleeps until the earliest next tick, runs what is due, and again. */
  private arm(): void {
    if (this.#stopped || this.options.jobs.length === 0) return;
    const now = this.#clock.now();
    const unsettled = this.options.jobs.some((j) => (this.#attempted.get(j.name) ?? -Infinity) < latestTick(j.schedule, now).getTime());
    const next = Math.min(...this.options.jobs.map((j) => nextTick(j.schedule, now).getTime()));
    // A claim that failed (database unreachable) leaves its tick unsettled: try again soon.
    const wakeAt = unsettled ? Math.min(next, now.getTime() + (this.options.retryMs ?? 30_000)) : next;
    this.#timer = setTimeout(() => {
      void this.runDue();
      this.arm();
    }, Math.min(Math.max(wakeAt - now.getTime(), 0), longestTimerMs));
    this.#timer.unref(); // the scheduler alone never keeps the process alive
  }
}

function overlapOf(claim: Claim): { running?: RunRecord } {
  return claim.kind === "overlap" ? { running: claim.running } : {};
}

function describeError(err: unknown): string {
  if (err instanceof Error) return err.cause instanceof Error ? `${err.message}: ${err.cause.message}` : err.message;
  return String(err);
}
