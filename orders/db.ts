import { drizzle } from "drizzle-orm/node-postgres";
import log from "encore.dev/log";
import { SQLDatabase } from "encore.dev/storage/sqldb";

// Tables from schema.ts; migrations are drizzle-kit's output (see drizzle.config.ts).
export const db = new SQLDatabase("orders", { migrations: { path: "migrations", source: "drizzle" } });

/** The shop's queries go through drizzle, on the database's own connection string. */
export const orm = drizzle(db.connectionString);

// pg's pool re-emits an idle connection's failure (the server restarting, or
// closing at shutdown) as an "error" event, which would crash the process with no
// listener. The pool drops that connection and opens a new one on the next query.
orm.$client.on("error", (err) => log.warn("orders: an idle database connection failed", { error: err.message }));

export type Orm = typeof orm;
