import type { SqlDriver, SqlQueryable } from "../sql/driver.ts";
import { applyMigrations } from "../sql/migrations.ts";
import { inTransaction } from "../sql/transaction.ts";
import { cronMigrations } from "./schema.ts";

export type Trigger = "schedule" | "manual";
export type Outcome = "running" | "succeeded" | "failed" | "skipped" | "abandoned";

/** One row of cron_run. */
export interface RunRecord {
  readonly id: number;
  readonly job: string;
  readonly tick: Date;
  readonly trigger: Trigger;
  readonly instance: string;
  readonly startedAt: Date;
  readonly finishedAt: Date | null;
  readonly outcome: Outcome;
  readonly error: string | null;
}

/** What claiming a tick came to. */
export type Claim =
  | { readonly kind: "claimed"; readonly run: RunRecord }
  /** Another instance (or an earlier pass of this one) claimed this tick. */
  | { readonly kind: "taken" }
  /** The tick is older than the job's first start: never caught up. */
  | { readonly kind: "before-first-start" }
  /** A run of the job is still in progress; a scheduled tick is recorded as skipped. */
  | { readonly kind: "overlap"; readonly running: RunRecord };

export interface CronStoreOptions {
  /** A running run whose heartbeat is older than this is taken to have died with its instance. */
  readonly staleAfterMs: number;
}

const runColumns = "id, job, tick, trigger, instance, started_at, finished_at, outcome, error";

/** The scheduler's bookkeeping in its own database (schema.ts): claims, heartbeats, outcomes. */
export class CronStore {
  constructor(
    private readonly driver: SqlDriver,
    private readonly options: CronStoreOptions,
  ) {}

  async migrate(): Promise<void> {
    await applyMigrations(this.driver, cronMigrations);
  }

  /** Records jobs seen for the first time; their first start bounds catch-up. */
  async register(jobs: readonly string[], now: Date): Promise<void> {
    await this.driver.query(
      `INSERT INTO cron_job (name, registered_at) SELECT unnest($1::text[]), $2 ON CONFLICT (name) DO NOTHING`,
      [jobs, now],
    );
  }

  /**
   * Claims a tick for this instance. The job's row is locked for the decision, so
   * two instances claiming at once are serialised: one gets the tick, the other
   * sees it taken (or the first one's run in progress).
   */
  claim(job: string, tick: Date, trigger: Trigger, instance: string, now: Date): Promise<Claim> {
    return inTransaction(this.driver, async (tx): Promise<Claim> => {
      // A manual run may come before any scheduler has started: it counts as the job's first sighting.
      await tx.query(`INSERT INTO cron_job (name, registered_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [job, now]);
      const rows = await tx.query(`SELECT registered_at, running_run FROM cron_job WHERE name = $1 FOR UPDATE`, [job]);
      const state = rows[0] as { registered_at: Date; running_run: number | null };
      if (trigger === "schedule") {
        if (tick < state.registered_at) return { kind: "before-first-start" };
        const taken = await tx.query(`SELECT 1 FROM cron_run WHERE job = $1 AND tick = $2 AND trigger = 'schedule'`, [job, tick]);
        if (taken.length > 0) return { kind: "taken" };
      }
      if (state.running_run !== null) {
        const running = (await tx.query(`SELECT ${runColumns}, heartbeat_at FROM cron_run WHERE id = $1`, [state.running_run]))[0]!;
        const staleBefore = new Date(now.getTime() - this.options.staleAfterMs);
        if ((running.heartbeat_at as Date) >= staleBefore) {
          if (trigger === "schedule") {
            await insertRun(tx, job, tick, trigger, instance, now, "skipped", `run ${running.id as number} was still in progress`);
          }
          return { kind: "overlap", running: toRecord(running) };
        }
        await tx.query(
          `UPDATE cron_run SET outcome = 'abandoned', finished_at = $2,
             error = 'its instance stopped sending heartbeats (last at ' || heartbeat_at || ')'
           WHERE id = $1`,
          [state.running_run, now],
        );
      }
      const run = await insertRun(tx, job, tick, trigger, instance, now, "running", null);
      await tx.query(`UPDATE cron_job SET running_run = $2 WHERE name = $1`, [job, run.id]);
      return { kind: "claimed", run };
    });
  }

  /** Tells other instances the run is alive. */
  async heartbeat(runId: number, now: Date): Promise<void> {
    await this.driver.query(`UPDATE cron_run SET heartbeat_at = $2 WHERE id = $1 AND outcome = 'running'`, [runId, now]);
  }

  /** Records how a run ended and frees its job for the next one. */
  finish(run: RunRecord, outcome: "succeeded" | "failed", error: string | null, now: Date): Promise<RunRecord> {
    return inTransaction(this.driver, async (tx) => {
      const rows = await tx.query(
        `UPDATE cron_run SET outcome = $2, error = $3, finished_at = $4 WHERE id = $1 RETURNING ${runColumns}`,
        [run.id, outcome, error, now],
      );
      await tx.query(`UPDATE cron_job SET running_run = NULL WHERE name = $1 AND running_run = $2`, [run.job, run.id]);
      return toRecord(rows[0]!);
    });
  }

  /** The most recent run of each job that has one (skipped ticks included). */
  async latestRuns(): Promise<Map<string, RunRecord>> {
    const rows = await this.driver.query(`SELECT DISTINCT ON (job) ${runColumns} FROM cron_run ORDER BY job, id DESC`, []);
    return new Map(rows.map((r) => [r.job as string, toRecord(r)]));
  }

  /** The latest `perJob` runs of each job, newest first (the development dashboard). */
  async recentRuns(perJob: number): Promise<Map<string, RunRecord[]>> {
    const rows = await this.driver.query(
      `SELECT ${runColumns} FROM (
         SELECT *, row_number() OVER (PARTITION BY job ORDER BY id DESC) AS n FROM cron_run
       ) ranked WHERE n <= $1 ORDER BY job, id DESC`,
      [perJob],
    );
    const byJob = new Map<string, RunRecord[]>();
    for (const row of rows) {
      const run = toRecord(row);
      byJob.set(run.job, [...(byJob.get(run.job) ?? []), run]);
    }
    return byJob;
  }

  /** Every run of a job, oldest first (tests and diagnostics). */
  async runsOf(job: string): Promise<RunRecord[]> {
    const rows = await this.driver.query(`SELECT ${runColumns} FROM cron_run WHERE job = $1 ORDER BY id`, [job]);
    return rows.map(toRecord);
  }
}

async function insertRun(
  tx: SqlQueryable,
  job: string,
  tick: Date,
  trigger: Trigger,
  instance: string,
  now: Date,
  outcome: Outcome,
  error: string | null,
): Promise<RunRecord> {
  const finishedAt = outcome === "running" ? null : now;
  const rows = await tx.query(
    `INSERT INTO cron_run (job, tick, trigger, instance, started_at, heartbeat_at, finished_at, outcome, error)
     VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8) RETURNING ${runColumns}`,
    [job, tick, trigger, instance, now, finishedAt, outcome, error],
  );
  return toRecord(rows[0]!);
}

function toRecord(row: Record<string, unknown>): RunRecord {
  return {
    id: Number(row.id),
    job: row.job as string,
    tick: row.tick as Date,
    trigger: row.trigger as Trigger,
    instance: row.instance as string,
    startedAt: row.started_at as Date,
    finishedAt: (row.finished_at as Date | null) ?? null,
    outcome: row.outcome as Outcome,
    error: (row.error as string | null) ?? null,
  };
}
