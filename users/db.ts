import { drizzle } from "drizzle-orm/node-postgres";
import log from "encore.dev/log";
import { SQLDatabase } from "encore.dev/storage/sqldb";

// Migrations are drizzle-kit's output, generated from ./schema.ts.
export const db = new SQLDatabase("users", { migrations: { path: "migrations", source: "drizzle" } });

/** drizzle-orm over its own node-postgres pool on the same database; accounts/user-store.ts holds every query. */
export const orm = drizzle(db.connectionString);

// node-postgres reports a lost idle connection (a server restart, the database
// closing at shutdown) as an "error" event on the pool, which would crash the
// process if nobody listened. The pool drops that connection and opens another on
// the next query, so a warning is all it needs.
orm.$client.on("error", (err) => log.warn("users database: idle connection lost", { error: err.message }));
