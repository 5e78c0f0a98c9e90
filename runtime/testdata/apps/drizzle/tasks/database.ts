import { drizzle } from "drizzle-orm/node-postgres";
import log from "encore.dev/log";
import { SQLDatabase } from "encore.dev/storage/sqldb";

// drizzle-kit writes the migrations (see drizzle.config.ts); Encore applies them in journal order.
const DB = new SQLDatabase("tasks", {
  migrations: { path: "migrations", source: "drizzle" },
});

/** drizzle-orm on node-postgres, connected to the database Encore provisions. */
export const orm = drizzle(DB.connectionString);

// node-postgres emits an idle connection's loss (the server restarting or closing the
// database) as an "error" event on the pool, which crashes the process when nobody
// listens; pg's documentation asks every pool to have a listener. The pool replaces
// the connection on the next query.
orm.$client.on("error", (err) => log.warn("tasks database: idle connection lost", { error: err.message }));
