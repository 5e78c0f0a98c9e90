import { api, APIError } from "encore.dev/api";
import { CronJob } from "encore.dev/cron";
import { db } from "./db";

export interface RollupResult {
  /** Sensors whose rollup was written. */
  sensors: number;
}

/**
 * Recomputes every sensor's rollup from all its readings. Running it again gives
 * the same figures, so a tick that runs twice or late does no harm.
 */
export const rollup = api(
  { expose: true, method: "POST", path: "/rollups/run" },
  async (): Promise<RollupResult> => {
    const result = await db.queryRow<{ sensors: number }>`
      WITH written AS (
        INSERT INTO rollups (sensor, readings, average, maximum, computed_at)
        SELECT sensor, count(*), avg(value), max(value), now() FROM readings GROUP BY sensor
        ON CONFLICT (sensor) DO UPDATE
          SET readings = EXCLUDED.readings, average = EXCLUDED.average,
              maximum = EXCLUDED.maximum, computed_at = EXCLUDED.computed_at
        RETURNING 1
      )
      SELECT count(*)::int AS sensors FROM written`;
    return { sensors: result?.sensors ?? 0 };
  },
);

const _ = new CronJob("rollup-readings", {
  title: "Roll up sensor readings",
  every: "1h",
  endpoint: rollup,
});

export interface Rollup {
  sensor: string;
  readings: number;
  average: number;
  maximum: number;
}

/** A sensor's figures as of the last rollup; not found before its first one. */
export const getRollup = api(
  { expose: true, method: "GET", path: "/rollups/:sensor" },
  async ({ sensor }: { sensor: string }): Promise<Rollup> => {
    const row = await db.queryRow<Rollup>`
      SELECT sensor, readings, average, maximum FROM rollups WHERE sensor = ${sensor}`;
    if (!row) throw APIError.notFound(`no rollup for sensor ${sensor} yet`);
    return row;
  },
);
