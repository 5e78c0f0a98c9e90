import * as encoreConfig from "encore.dev/config";
import * as sqldb from "encore.dev/storage/sqldb";

export const analytics = new sqldb.SQLDatabase("analytics", {
  migrations: { path: "db/migrations", source: "drizzle" },
});

// Through a namespace import, and next to members of plain values, which are never SDK exports.
const tokens = ["a", "b"].map((t) => t.toUpperCase());
export const reportsKey = encoreConfig.secret("ReportsKey");
void tokens;

// Prisma Migrate's layout, as Encore documents it for Prisma.
export const ledger = new sqldb.SQLDatabase("ledger", {
  migrations: { path: "./prisma/migrations", source: "prisma" },
});
