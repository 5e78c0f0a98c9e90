import pg from "pg";
import { dropDatabases } from "../vitest/databases.ts";

/** Drops every database whose name starts with `prefix`: all an app made, its runtime's own included. */
export async function dropDatabasesWithPrefix(serverUrl: string, prefix: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  let names: string[];
  try {
    const rows = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE starts_with(datname, $1)", [prefix]);
    names = rows.rows.map((r) => r.datname);
  } finally {
    await admin.end();
  }
  await dropDatabases(serverUrl, names);
}
