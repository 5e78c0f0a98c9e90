import { SQLDatabase } from "encore.dev/storage/sqldb";

// drizzle-kit 1.0's folder-per-migration layout: Encore reads it, this runtime does not yet.
export const db = new SQLDatabase("main", {
  migrations: { path: "./migrations", source: "drizzle/v1" },
});
