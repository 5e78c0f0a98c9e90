// `npm start` as a user runs it, timed from the command to the first 200 on /healthz.
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { isAlive, listenerPid, postmasterPid } from "./proc.ts";

export interface StartedApp {
  /** Milliseconds from spawning `npm start` to the first 200 on /healthz. */
  readonly readyMs: number;
  /** The process serving HTTP (npm and its shell are its parents, not counted). */
  readonly appPid: number;
  readonly url: string;
  /** Sends SIGTERM to the app, as a process manager would, and waits until it and its cluster are gone. */
  stop(): Promise<void>;
}

const readyTimeoutMs = 120_000;
const stopTimeoutMs = 30_000;

/** Runs `npm start` in `appDir`; its output goes to `logFile`. */
export async function npmStart(appDir: string, env: Record<string, string>, logFile: string): Promise<StartedApp> {
  const port = Number(env.PORT);
  const log = openSync(logFile, "a");
  const started = performance.now();
  // Its own process group, so whatever is left after a failure can be ended at once.
  const npm = spawn("npm", ["start"], { cwd: appDir, env: { ...process.env, ...env }, stdio: ["ignore", log, log], detached: true });
  closeSync(log);
  const exited = new Promise<void>((resolve) => npm.once("exit", () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  try {
    while (!(await healthy(port))) {
      if (gone) throw new Error(`npm start exited before answering:\n${tail(logFile)}`);
      if (performance.now() - started > readyTimeoutMs) throw new Error(`no 200 on /healthz within ${readyTimeoutMs} ms:\n${tail(logFile)}`);
      await sleep(10);
    }
  } catch (err) {
    killGroup(npm);
    throw err;
  }
  const readyMs = performance.now() - started;
  const appPid = listenerPid(port);
  if (!appPid) throw new Error(`nothing listens on port ${port}`);
  return {
    readyMs,
    appPid,
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      process.kill(appPid, "SIGTERM");
      const deadline = performance.now() + stopTimeoutMs;
      while (!gone || isAlive(appPid) || postmasterPid(env.DATA_DIR!) !== null) {
        if (performance.now() > deadline) {
          killGroup(npm);
          throw new Error(`the app did not stop within ${stopTimeoutMs} ms of SIGTERM:\n${tail(logFile)}`);
        }
        await sleep(20);
      }
    },
  };
}

function healthy(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ host: "127.0.0.1", port, path: "/healthz", agent: false, timeout: 5_000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("error", () => resolve(false));
    req.on("timeout", () => req.destroy());
    req.end();
  });
}

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, "SIGKILL");
  } catch {
    // already gone
  }
}

function tail(file: string): string {
  return readFileSync(file, "utf8").trim().split("\n").slice(-15).join("\n");
}
