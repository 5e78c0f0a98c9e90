// A server process reduced to its database side, spawned by shutdown.test.ts: the
// runtime on its embedded cluster, and pools the app made itself on connectionString
// (knex's with an idle connection, node-postgres's with two queries in progress, one
// short and one long whose failure nobody handles) when SIGTERM arrives. The stop is
// start.ts's, with no HTTP server to close.
import knex from "knex";
import pg from "pg";
import { SQLDatabase } from "../encore.dev/storage/sqldb/mod.ts";
import { stopAndExit, watchStopSignals } from "../internal/server/lifecycle/shutdown.ts";
import { connectionsReady, connectServer } from "../internal/sql/databases.ts";

const stopRequested = watchStopSignals();
await connectServer();
const db = new SQLDatabase("own_pools");
const url = db.connectionString;
await connectionsReady();

const orm = knex({ client: "pg", connection: url });
await orm.raw("SELECT 1"); // leaves one idle connection in knex's pool
const pool = new pg.Pool({ connectionString: url });
void pool.query("SELECT pg_sleep(60)"); // a background job's query, its rejection unhandled
void pool.query("SELECT pg_sleep(1)").then(() => console.log("short query finished"));

while ((await db.queryRow`SELECT count(*) AS n FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(%' AND state = 'active'`)?.n !== 2) {
  await new Promise((resolve) => setTimeout(resolve, 20));
}
console.log("ready");
void stopRequested.then(() => stopAndExit(async () => {}));
