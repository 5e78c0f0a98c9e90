import type { Migration } from "../sql/migrations.ts";

/** The runtime's own database for the scheduler's bookkeeping; app databases are never touched. */
export const cronDatabaseName = "encore_cron";

/**
 * cron_job: one row per job, locked while a tick is claimed, so claims of one
 * job are serialised across instances. `running_run` is the run in progress.
 * cron_run: one row per run. A scheduled tick can be claimed once (the partial
 * unique index); manual runs (the operators' command) are recorded beside them.
 */
export const cronMigrations: Migration[] = [
  {
    version: 1,
    name: "create_cron",
    file: "runtime/internal/cron/schema.ts",
    sql: `
      CREATE TABLE cron_run (
        id bigserial PRIMARY KEY,
        job text NOT NULL,
        tick timestamptz NOT NULL,
        trigger text NOT NULL CHECK (trigger IN ('schedule', 'manual')),
        instance text NOT NULL,
        started_at timestamptz NOT NULL,
        heartbeat_at timestamptz NOT NULL,
        finished_at timestamptz,
        outcome text NOT NULL CHECK (outcome IN ('running', 'succeeded', 'failed', 'skipped', 'abandoned')),
        error text
      );
      CREATE UNIQUE INDEX cron_run_once_per_tick ON cron_run (job, tick) WHERE trigger = 'schedule';
      CREATE INDEX cron_run_latest ON cron_run (job, id DESC);
      CREATE TABLE cron_job (
        name text PRIMARY KEY,
        registered_at timestamptz NOT NULL,
        running_run bigint REFERENCES cron_run (id)
      );
    `,
  },
];
