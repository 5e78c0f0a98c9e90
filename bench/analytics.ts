// npm run bench:analytics: how many url-shortened events a second the
// track-analytics subscription counts, end to end through the app's own process: N
// events are put in url's outbox while the app is stopped, the app is started, its
// outbox sweep publishes them, and the subscription counts them into daily_stats.
// The rate is taken from the first to the last event counted (processed_at), so
// start-up is left out; the run then checks each event was counted exactly once.
//
//   BENCH_EVENTS (20000)      events
//   BENCH_DATABASE_URL        the PostgreSQL server to use (default: an embedded cluster of its own)
//   BENCH_NATS_URL            carry the events on NATS JetStream (default: the SQL provider)
import { rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { natsPrefix } from "../runtime/internal/pubsub/mod.ts";
import { startCluster, stopCluster } from "../runtime/internal/sql/embedded/cluster.ts";
import { dropDatabasesWithPrefix } from "../runtime/test/databases.ts";
import { startApp } from "../test/support/app-process.ts";
import { tempDataDir } from "../runtime/vitest/temp-dir.ts";

const events = Number(process.env.BENCH_EVENTS ?? 20_000);
const databaseUrl = process.env.BENCH_DATABASE_URL?.trim();
const natsUrl = process.env.BENCH_NATS_URL?.trim();

const dataDir = tempDataDir("bench-analytics-");
const clusterDir = path.join(dataDir, "postgres");
const prefix = `bench_analytics_${process.pid}_`;
const env = {
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl ?? "",
  DATABASE_NAME_PREFIX: prefix,
  NATS_URL: natsUrl ?? "",
  LOG_LEVEL: "info", // startApp waits for the "listening" line
};

function client(serverUrl: string, database: string): pg.Client {
  const url = new URL(serverUrl);
  url.pathname = `/${prefix}${database}`;
  const c = new pg.Client({ connectionString: url.href });
  c.on("error", () => {}); // a failure surfaces through the query in flight
  return c;
}

async function main(): Promise<void> {
  // A first start creates and migrates the databases (and the NATS stream).
  const first = await startApp(env);
  // Joining the embedded cluster keeps it running after the app stops: our connections count as a user.
  const serverUrl = databaseUrl ?? (await startCluster({ dir: clusterDir })).url;
  const url = client(serverUrl, "url");
  const analytics = client(serverUrl, "analytics");
  await Promise.all([url.connect(), analytics.connect()]);
  try {
    await first.stop("SIGTERM");
    await url.query(
      `INSERT INTO url_shortened_outbox (code, original_url, created_at)
       SELECT 'b' || lpad(i::text, 6, '0'), 'https://bench.example/' || i, now() FROM generate_series(1, $1::int) AS i`,
      [events],
    );
    const app = await startApp(env);
    const started = Date.now();
    try {
      for (;;) {
        const { rows } = await analytics.query<{ n: number }>("SELECT count(*)::int AS n FROM processed_events");
        if (rows[0]!.n >= events) break;
        if (Date.now() - started > 600_000) throw new Error(`only ${rows[0]!.n} of ${events} events counted in 10 minutes`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } finally {
      await app.stop("SIGTERM");
    }
    const { rows } = await analytics.query<{ seconds: number; counted: number; rows: number }>(
      `SELECT (SELECT EXTRACT(EPOCH FROM max(processed_at) - min(processed_at))::float8 FROM processed_events) AS seconds,
              (SELECT coalesce(sum(urls_created), 0)::int FROM daily_stats) AS counted,
              (SELECT count(*)::int FROM daily_stats) AS rows`,
    );
    const { seconds, counted, rows: dayRows } = rows[0]!;
    if (counted !== events) throw new Error(`daily_stats counted ${counted} of ${events} events`);
    console.log(
      `${events} events on ${natsUrl ? "NATS JetStream" : "the SQL provider"}, ${databaseUrl ? "PostgreSQL server" : "embedded PostgreSQL"}: ` +
        `${Math.round((events - 1) / seconds)} events/s counted (${seconds.toFixed(2)} s first to last; daily_stats rows: ${dayRows})`,
    );
  } finally {
    await Promise.all([url.end(), analytics.end()]);
    if (databaseUrl) await dropDatabasesWithPrefix(databaseUrl, prefix);
    else await stopCluster(clusterDir);
    if (natsUrl) {
      const { deleteNatsStreams } = await import("../runtime/internal/pubsub/nats-provider.ts");
      await deleteNatsStreams(natsUrl, natsPrefix(prefix));
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
