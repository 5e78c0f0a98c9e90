// encore-selfhost run: the development server, as `encore run` gives it. This process
// generates and bundles the app, runs the bundle as a child process, and on every change
// to the app's sources builds again and replaces the child. It holds the embedded
// PostgreSQL cluster for the whole session, so a restart does not restart the database
// (the child joins the running cluster; see EmbeddedSession). The child also serves the
// development dashboard on its own loopback port (--dashboard-port, default 9400), which
// goes down and comes back with it; --no-dashboard leaves it off.
//
// The dashboard opens only for the developer: this process draws a secret when it starts
// and hands the same one to every child in its environment (never in its arguments, which
// `ps` shows to every account), so a page opened with the link printed here keeps working
// across the restarts; a new `run` draws a new one. The link goes to this terminal only:
// the child's log lines name the dashboard's address without it.
//
// Unless HOST is set, the app listens on loopback (127.0.0.1), as `encore run` does: a
// development server is not for the network. `start` keeps listening on every interface.
//
// As under `encore run`, error answers carry `internal_message` unless
// ENCORE_API_INCLUDE_INTERNAL_MESSAGE says otherwise; `start` never adds it by itself.
import { watch } from "chokidar";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { PinoPretty } from "pino-pretty";
import { appRoot } from "../internal/config/app-root.ts";
import { dashboardSecretVariable, newDashboardSecret } from "../internal/config/dashboard-secret.ts";
import { localSecretsFile } from "../internal/config/secrets.ts";
import { config } from "../internal/config/mod.ts";
import { accessLink } from "../internal/dashboard/access.ts";
import { ParseError } from "../internal/parser/mod.ts";
import { embeddedClusterDir } from "../internal/sql/databases.ts";
import { EmbeddedSession } from "../internal/sql/embedded/session.ts";
import { parseRunArgs } from "./run-args.ts";
import type { DashboardOpened } from "./serve.ts";
import { landBundle, removeOtherBuilds } from "./server-bundle.ts";

/** How long edits settle (an editor's save, a formatter after it) before a rebuild. */
const settleMs = 150;
/** How long the app has to stop before it is killed. */
const stopGraceMs = 30_000;
/** How long, once the app has exited, its output may take to close. */
const outputCloseMs = 1_000;
/** Where the app listens without HOST. */
const loopbackHost = "127.0.0.1";

const say = (line: string) => console.error(`[run] ${line}`);

let child: { process: ChildProcess; bundle: string; exited: Promise<void>; stopRequested?: boolean } | undefined;
let session: EmbeddedSession | undefined;
let building: Promise<void> | undefined;
let changedAgain = false;
let stopping = false;

const args = parseRunArgs(process.argv.slice(2));
if ("error" in args) {
  say(`${args.error}\nusage: encore-selfhost run [--dashboard-port <n>] [--no-dashboard]`);
  process.exit(2);
}
const childArgs = args.dashboardPort === null ? [] : [`--dashboard-port=${args.dashboardPort}`];
const dashboardSecret = args.dashboardPort === null ? null : newDashboardSecret();
/** The dashboard address whose link was printed last: printed again only when it changes. */
let printedDashboard: string | undefined;
let childEnv: NodeJS.ProcessEnv = process.env;

try {
  const cfg = config();
  childEnv = {
    // As `encore run` does, for local development: the internal message in error answers
    // (an internal error's own text, hidden from clients otherwise). Set to 0 to leave it out.
    ENCORE_API_INCLUDE_INTERNAL_MESSAGE: "1",
    ...process.env,
    HOST: cfg.hostSet ? cfg.host : loopbackHost,
    ...(dashboardSecret === null ? {} : { [dashboardSecretVariable]: dashboardSecret }),
  };
  const clusterDir = embeddedClusterDir();
  [session] = await Promise.all([
    cfg.databaseUrl ? undefined : EmbeddedSession.open({ dir: clusterDir, connectTimeoutMs: cfg.sql.connectTimeoutMs }),
    rebuild("start"),
  ]);
  // Where it lives: $DATA_DIR/postgres, or (as root, in a private folder) elsewhere, which the app's own log says why.
  if (session) say(`embedded PostgreSQL at ${session.home.dir}, kept running across restarts`);
  watchSources();
  // For the whole stop, not once: without a listener, a second Ctrl-C would end run at once,
  // before its app had stopped and with the embedded cluster left running. stopGraceMs bounds it.
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void stop());
} catch (err) {
  say(`start-up failed: ${(err as Error).message}`);
  await stop(1);
}

/** Builds and, when the bundle changed, replaces the running app; one build at a time. */
async function rebuild(reason: string): Promise<void> {
  if (building) {
    changedAgain = true;
    return building;
  }
  building = (async () => {
    try {
      const bundle = await landBundle(appRoot);
      if (stopping || (child && child.bundle === bundle)) return;
      if (child) say(`${reason}: restarting`);
      await stopChild();
      startChild(bundle);
      removeOtherBuilds(bundle);
    } catch (err) {
      // A mistake in the app: say where, keep the last good app serving, wait for the fix.
      say(err instanceof ParseError ? err.message : ((err as Error).stack ?? String(err)));
      say(child ? "still serving the last version that built; waiting for a change" : "waiting for a change");
    } finally {
      building = undefined;
    }
  })();
  await building;
  if (changedAgain) {
    changedAgain = false;
    await rebuild("changed while building");
  }
}

function startChild(bundle: string): void {
  const proc = spawn(process.execPath, ["--enable-source-maps", path.join(bundle, "server.mjs"), ...childArgs], {
    cwd: appRoot,
    env: childEnv,
    // The IPC channel: the child says where its dashboard listens once it does.
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  proc.on("message", (message: DashboardOpened) => {
    if (dashboardSecret === null || typeof message?.dashboardUrl !== "string" || message.dashboardUrl === printedDashboard) return;
    printedDashboard = message.dashboardUrl;
    say(`development dashboard: ${accessLink(message.dashboardUrl, dashboardSecret)}`);
  });
  // The app logs JSON lines; on a terminal they are made readable, elsewhere left as they are.
  proc.stdout!.pipe(process.stdout.isTTY ? PinoPretty({ colorize: true, ignore: "pid,hostname", sync: true }) : process.stdout);
  const exited = new Promise<void>((resolve) => {
    proc.once("exit", (code, signal) => {
      if (child?.process === proc && !child.stopRequested) say(`the app exited (${signal ?? `code ${code}`}); it starts again on the next change`);
      if (child?.process === proc) child = undefined;
      // Its last lines (how its stop went) may still be in the pipe when it exits: they are
      // passed on once its output closes, before run itself exits. A process the app started
      // may hold the pipe open, hence the bound.
      setTimeout(resolve, outputCloseMs);
    });
    proc.once("close", () => resolve());
  });
  child = { process: proc, bundle, exited };
}

async function stopChild(): Promise<void> {
  const current = child;
  if (!current) return;
  current.stopRequested = true;
  current.process.kill("SIGTERM");
  const killer = setTimeout(() => current.process.kill("SIGKILL"), stopGraceMs);
  await current.exited;
  clearTimeout(killer);
}

/** Watches what the app is built from: TypeScript, migrations, encore.app, tsconfig.json, local secrets. */
function watchSources(): void {
  let timer: NodeJS.Timeout | undefined;
  const changed = new Set<string>();
  const watcher = watch(appRoot, { ignoreInitial: true, ignored: isIgnored });
  watcher.on("all", (_event, file) => {
    if (!isBuildInput(file)) return;
    changed.add(path.relative(appRoot, file));
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...changed];
      changed.clear();
      void rebuild(`${files.slice(0, 3).join(", ")}${files.length > 3 ? ", ..." : ""} changed`);
    }, settleMs);
  });
  stopWatching = () => watcher.close();
}
let stopWatching = async (): Promise<void> => {};

/** Folders that never hold the app's sources: dependencies, output, data, other packages. */
function isIgnored(file: string): boolean {
  const rel = path.relative(appRoot, file);
  if (rel === "") return false;
  const segments = rel.split(path.sep);
  if (segments.some((s) => s.startsWith(".") && s !== localSecretsFile)) return true;
  if (["node_modules", "encore.gen"].includes(segments[0]!)) return true;
  return segments.length === 1 && existsSync(path.join(file, "package.json"));
}

function isBuildInput(file: string): boolean {
  const name = path.basename(file);
  if (/\.(test|spec)\.tsx?$/.test(name)) return false;
  return /\.(tsx?|mts|sql)$/.test(name) || ["encore.app", "tsconfig.json", localSecretsFile].includes(name);
}

async function stop(exitCode = 0): Promise<void> {
  if (stopping) {
    say("already stopping: waiting for the app to finish its stop");
    return;
  }
  stopping = true;
  await stopWatching();
  await building?.catch(() => {});
  await stopChild();
  await session?.release();
  process.exit(exitCode);
}
