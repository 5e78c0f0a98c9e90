import log from "encore.dev/log";
import { SQLDatabase } from "encore.dev/storage/sqldb";
import pg from "pg";

// Encore creates the database and runs ./migrations before the service serves requests.
export const db = new SQLDatabase("user", { migrations: "./migrations" });

/** node-postgres on the same database, for the report queries written with it. */
export const pool = new pg.Pool({ connectionString: db.connectionString });

// pg's documentation asks every pool to listen for an idle connection's loss, which
// otherwise crashes the process; the pool replaces the connection on the next query.
pool.on("error", (err) => log.warn("user database: idle connection lost", { error: err.message }));
