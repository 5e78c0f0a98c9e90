import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { binariesRunnableBy, postgresBinaries } from "./binaries.ts";
import { clusterFiles, ensureInitialised, superuser, type ClusterFiles } from "./initdb.ts";
import { clusterHome, prepareSharedHome, type ClusterHome } from "./location.ts";
import { existingServerAccount, serverAccount } from "./os-user.ts";
import { runningPostmaster, stopPostmaster, waitUntilGone, type Postmaster } from "./postmaster.ts";
import { serverSettings, type Durability } from "./settings.ts";

/** A start (crash recovery included) or a stop that takes longer than this has failed. */
const serverTimeoutMs = 60_000;

export interface ClusterOptions {
  /** The cluster's folder, $DATA_DIR/postgres; under root it may live elsewhere (clusterHome). */
  readonly dir: string;
  /** "disposable" (tests) trades crash safety for speed; the default keeps data safe. */
  readonly durability?: Durability;
}

/** A running embedded cluster and the address to reach it at. */
export interface RunningCluster {
  /** postgres://postgres:<password>@127.0.0.1:<port>/postgres */
  readonly url: string;
  readonly port: number;
  /** Whether this call started the server (false: it was already running). */
  readonly started: boolean;
  /** Where the cluster lives. */
  readonly home: ClusterHome;
}

/**
 * Makes sure the cluster in `dir` is running, and returns its address: creates
 * it on first use, reuses a server already running on the folder (another app
 * process, a command, or one left by a process that was killed), and starts it
 * otherwise, as a process of its own that outlives this one if it dies.
 */
export async function startCluster(options: ClusterOptions): Promise<RunningCluster> {
  const durability = options.durability ?? "durable";
  const { account, binaries, home, files } = await initialiseCluster(options);
  const pgdata = realpathSync(files.pgdata);
  const password = readFileSync(files.passwordFile, "utf8").trim();
  const address = (port: number, started: boolean): RunningCluster => ({
    url: `postgres://${superuser}:${password}@127.0.0.1:${port}/postgres`,
    port,
    started,
    home,
  });

  for (let attempt = 1; ; attempt++) {
    const running = runningPostmaster(pgdata);
    if (running) {
      const ready = await untilSettled(pgdata, running);
      if (ready) return address(ready.port, false);
      continue; // it was stopping, and is gone now
    }
    const port = await choosePort(files);
    const outcome = await spawnServer(binaries.postgres, account, pgdata, files, port, durability);
    if (outcome === "ready") {
      writeFileSync(files.portFile, `${port}\n`);
      return address(port, true);
    }
    // Another process started the server first, or the port was taken meanwhile: look again.
    if (attempt >= 3) throw new Error(`the embedded PostgreSQL did not start: ${outcome}`);
  }
}

/** Creates the cluster asked for in `dir` (initdb) unless it exists; does not start it. */
export async function initialiseCluster(options: ClusterOptions) {
  const account = serverAccount();
  const binaries = binariesRunnableBy(postgresBinaries(), account);
  const home = clusterHome(options.dir, account);
  if (home.movedBecause) prepareSharedHome(home, options.dir);
  const files = clusterFiles(home.dir);
  await ensureInitialised(files, binaries, account, options.durability ?? "durable");
  return { account, binaries, home, files };
}

/** Stops the server of the cluster asked for in `dir`, if it runs: a fast shutdown, which ends open sessions. */
export async function stopCluster(dir: string): Promise<void> {
  let pgdata: string;
  try {
    pgdata = realpathSync(clusterFiles(clusterHome(dir, existingServerAccount()).dir).pgdata);
  } catch {
    return; // no cluster there
  }
  await stopPostmaster(pgdata, serverTimeoutMs);
}

/** Waits while the server is starting (or recovering) or stopping; null once it has stopped. */
async function untilSettled(pgdata: string, seen: Postmaster): Promise<Postmaster | null> {
  const deadline = Date.now() + serverTimeoutMs;
  for (let server: Postmaster | null = seen; server; server = runningPostmaster(pgdata)) {
    if (server.status === "ready") return server;
    if (server.status === "stopping") {
      await waitUntilGone(server.pid, serverTimeoutMs);
      return null;
    }
    if (Date.now() > deadline) throw new Error(`the embedded PostgreSQL (pid ${server.pid}) did not become ready`);
    await sleep(20);
  }
  return null;
}

/** Starts the server and waits until it accepts connections; otherwise says why it could not. */
async function spawnServer(
  program: string,
  account: ReturnType<typeof serverAccount>,
  pgdata: string,
  files: ClusterFiles,
  port: number,
  durability: Durability,
): Promise<"ready" | string> {
  const log = openSync(files.logFile, "w", 0o600);
  const child = spawn(program, ["-D", pgdata, ...serverSettings(port, durability)], {
    // Its own session: a Ctrl-C in the terminal reaches the app, which writes what it
    // holds and then stops the server, rather than both at once.
    detached: true,
    stdio: ["ignore", log, log],
    env: { ...process.env, LC_ALL: "C" },
    ...(account ? { uid: account.uid, gid: account.gid } : {}),
  });
  closeSync(log);
  child.unref();
  let exited = false;
  child.once("exit", () => (exited = true));
  child.once("error", () => (exited = true));
  const deadline = Date.now() + serverTimeoutMs;
  while (!exited) {
    const server = runningPostmaster(pgdata);
    if (server && server.pid === child.pid && server.status === "ready") return "ready";
    if (Date.now() > deadline) {
      child.kill("SIGINT");
      return `not ready within ${serverTimeoutMs} ms; see ${files.logFile}`;
    }
    await sleep(20);
  }
  const tail = readFileSync(files.logFile, "utf8").trim().split("\n").slice(-3).join(" / ");
  return tail || `the server exited at once; see ${files.logFile}`;
}

/** The port used last time when it is free, so clients that remember it reconnect; else a free one. */
async function choosePort(files: ClusterFiles): Promise<number> {
  let previous = 0;
  try {
    previous = Number(readFileSync(files.portFile, "utf8").trim()) || 0;
  } catch {
    // first start
  }
  if (previous && (await isFree(previous))) return previous;
  return freePort();
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no free port"))));
    });
  });
}
