// This repository's app as a process, run by the runtime beside it in the checkout
// (runtime/cli), for the tests and benchmarks that need a real server process.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { bundleDir } from "../../runtime/cli/bundle-dir.mjs";
import { appRoot } from "../../runtime/internal/config/app-root.ts";
import { spawnCommand, whenListening, type Serving, type Spawned } from "../../runtime/test/command.ts";
import { dropDatabasesWithPrefix } from "../../runtime/test/databases.ts";

export type { StartFailure } from "../../runtime/test/command.ts";
export type RunningApp = Serving;
export type SpawnedApp = Spawned;

/**
 * Spawns the app as `npm start` does (encore-selfhost start, on plain Node), on a free
 * port. The bundle is built here first when the sources changed, once, rather than by
 * every test file's app at once.
 */
export function spawnApp(env: Record<string, string>): SpawnedApp {
  builtBundle();
  return spawnCommand(process.execPath, ["runtime/cli/main.mjs", "start"], appRoot, { ...process.env, PORT: "0", LOG_LEVEL: "info", ...env });
}

/** Spawns the bundle's server.mjs itself with `args`, as `run` spawns its child, on a free port. */
export function spawnBundle(args: readonly string[], env: Record<string, string>): SpawnedApp {
  const bundle = builtBundle();
  return spawnCommand(process.execPath, [path.join(bundle, "server.mjs"), ...args], appRoot, { ...process.env, PORT: "0", LOG_LEVEL: "info", ...env });
}

/** The bundle of the current sources, built here first when missing. */
function builtBundle(): string {
  const bundle = bundleDir(appRoot);
  if (!existsSync(path.join(bundle, "server.mjs"))) {
    execFileSync(process.execPath, ["runtime/cli/run-ts.mjs", "runtime/cli/bundle.ts"], { cwd: appRoot, stdio: "inherit" });
  }
  return bundle;
}

/** Spawns the app and resolves once it listens. */
export function startApp(env: Record<string, string>): Promise<RunningApp> {
  return whenListening(spawnApp(env), 60_000);
}

/** Drops databases a child process created on the PostgreSQL server, if one is in use. */
export async function dropServerDatabases(prefix: string): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) await dropDatabasesWithPrefix(serverUrl, prefix);
}

/** Two instances of the app on one set of databases, and a client of one of them, for tests of what instances share. */
export interface TwoInstances {
  readonly a: RunningApp;
  readonly b: RunningApp;
  /** Connected to `<prefix><database>`, beside the instances. */
  readonly sql: pg.Client;
  /** Stops both, ends the client and drops the databases. */
  close(): Promise<void>;
}

/**
 * Starts `a`, which creates and migrates the databases named with `env(...)`'s
 * DATABASE_NAME_PREFIX, then `b` on the same ones (started one after the other, so the
 * second finds them migrated), and connects to `database`.
 */
export async function startTwoInstances(env: (name: "a" | "b") => Record<string, string>, database: string): Promise<TwoInstances> {
  const prefix = env("a").DATABASE_NAME_PREFIX ?? "";
  const a = await startApp(env("a"));
  let b: RunningApp | undefined;
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${prefix}${database}`;
  const sql = new pg.Client({ connectionString: url.href });
  try {
    b = await startApp(env("b"));
    await sql.connect();
  } catch (err) {
    // Nothing is left running when the second start fails.
    await Promise.all([a.stop(), b?.stop(), sql.end().catch(() => {})]);
    await dropServerDatabases(prefix);
    throw err;
  }
  return {
    a,
    b: b!,
    sql,
    async close() {
      await sql.end();
      await Promise.all([a.stop(), b!.stop()]);
      await dropServerDatabases(prefix);
    },
  };
}
