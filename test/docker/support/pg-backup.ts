// Backup and restore as an operator does it: pg_dump in its custom format per database,
// pg_restore into a new database. PostgreSQL's own client tools, matching the server.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { sh } from "./docker.ts";

export async function databasesWithPrefix(serverUrl: string, prefix: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname", [prefix]);
    return rows.map((r) => r.datname);
  } finally {
    await client.end();
  }
}

export interface Dump {
  readonly database: string;
  readonly file: string;
}

/** One `pg_dump --format=custom` file per database, in a folder of its own. */
export async function backUp(serverUrl: string, databases: readonly string[]): Promise<Dump[]> {
  const dir = mkdtempSync(path.join(tmpdir(), "backup-"));
  const dumps: Dump[] = [];
  for (const database of databases) {
    const file = path.join(dir, `${database}.dump`);
    await sh("pg_dump", ["--format=custom", "--file", file, "--dbname", urlOf(serverUrl, database)], dir);
    dumps.push({ database, file });
  }
  return dumps;
}

/** Each dump into a new database named by `rename`; the dumps' folder is removed afterwards. */
export async function restore(serverUrl: string, dumps: readonly Dump[], rename: (database: string) => string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    for (const { database, file } of dumps) {
      const target = rename(database);
      await admin.query(`CREATE DATABASE "${target}"`);
      await sh("pg_restore", ["--exit-on-error", "--no-owner", "--dbname", urlOf(serverUrl, target), file], path.dirname(file));
    }
  } finally {
    await admin.end();
    if (dumps[0]) rmSync(path.dirname(dumps[0].file), { recursive: true, force: true });
  }
}

function urlOf(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.href;
}
