import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { bundleDir } from "../cli/bundle-dir.mjs";
import { appRoot } from "../internal/config/app-root.ts";
import { dropDatabasesWithPrefix } from "./databases.ts";

export interface RunningApp {
  readonly child: ChildProcess;
  /** Base URL on loopback. */
  readonly url: string;
  output(): string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface StartFailure extends Error {
  exitCode: number | null;
  output: string;
}

export interface SpawnedApp {
  readonly child: ChildProcess;
  output(): string;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
}

/**
 * Spawns the app as `npm start` does (encore-selfhost start, on plain Node), on a free
 * port. The bundle is built here first when the sources changed, once, rather than by
 * every test file's app at once.
 */
export function spawnApp(env: Record<string, string>): SpawnedApp {
  if (!existsSync(path.join(bundleDir(appRoot), "server.mjs"))) {
    execFileSync(process.execPath, ["runtime/cli/run-ts.mjs", "runtime/cli/bundle.ts"], { cwd: appRoot, stdio: "inherit" });
  }
  const child = spawn(process.execPath, ["runtime/cli/main.mjs", "start"], {
    cwd: appRoot,
    env: { ...process.env, PORT: "0", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (c) => (output += c));
  child.stderr!.on("data", (c) => (output += c));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Spawns the app and resolves once it listens. */
export function startApp(env: Record<string, string>): Promise<RunningApp> {
  const { child, output, exited } = spawnApp(env);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line within 60 s:\n${output()}`)), 60_000);
    child.stdout!.on("data", () => {
      const port = /listening on http:\/\/localhost:(\d+)/.exec(output())?.[1];
      if (!port) return;
      clearTimeout(timer);
      resolve({
        child,
        url: `http://127.0.0.1:${port}`,
        output,
        stop: (signal = "SIGTERM") => {
          child.kill(signal);
          return exited;
        },
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`exited with ${code} before listening:\n${output()}`), { exitCode: code, output: output() }));
    });
  });
}

/** Drops databases a child process created on the PostgreSQL server, if one is in use. */
export async function dropServerDatabases(prefix: string): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) await dropDatabasesWithPrefix(serverUrl, prefix);
}
