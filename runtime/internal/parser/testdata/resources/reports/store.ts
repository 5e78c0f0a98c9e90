import * as sqldb from "encore.dev/storage/sqldb";

export const analytics = new sqldb.SQLDatabase("analytics", {
  migrations: { path: "db/migrations", source: "drizzle" },
});
