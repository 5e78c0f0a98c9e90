import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { expect, test } from "vitest";
import { db } from "./db";

const migration = (file: string) => readFileSync(path.join(import.meta.dirname, "migrations", file), "utf8");

test("folding the shards keeps every count: one row per day holding the day's sum, date unique again", async () => {
  await db.exec`SELECT 1`; // the database exists once a query got through
  // The migrations applied by hand in a schema of their own, to stop at version 4.
  const client = new pg.Client({ connectionString: db.connectionString });
  await client.connect();
  try {
    await client.query("CREATE SCHEMA fold_test; SET search_path = fold_test");
    for (const file of ["1_create_daily_stats.up.sql", "2_create_daily_reports.up.sql", "3_key_processed_events.up.sql", "4_shard_daily_stats.up.sql"]) {
      await client.query(migration(file));
    }
    await client.query(`
      INSERT INTO daily_stats (date, shard, urls_created)
      SELECT '2020-01-01'::date + (i % 3), i % 16, i FROM generate_series(1, 40) AS i`);
    const sums = "SELECT to_char(date, 'YYYY-MM-DD') AS date, sum(urls_created)::int AS n FROM daily_stats GROUP BY date ORDER BY date";
    const before = (await client.query(sums)).rows;

    await client.query("BEGIN");
    await client.query(migration("5_fold_daily_stats.up.sql"));
    await client.query("COMMIT");

    const rows = (await client.query("SELECT to_char(date, 'YYYY-MM-DD') AS date, urls_created AS n FROM daily_stats ORDER BY date")).rows;
    expect(rows).toEqual(before);
    expect(rows).toHaveLength(3);
    expect(rows.reduce((n, r: { n: number }) => n + r.n, 0)).toBe((40 * 41) / 2);
    await expect(client.query("INSERT INTO daily_stats (date, urls_created) VALUES ('2020-01-01', 1)")).rejects.toThrow(/daily_stats_date_key/);
  } finally {
    await client.query("DROP SCHEMA IF EXISTS fold_test CASCADE").catch(() => {});
    await client.end();
  }
});
