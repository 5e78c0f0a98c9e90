// Commands a test runs as a user would type them: spawned, their output kept, and servers
// waited for until they log the port they listen on.
import { spawn, type ChildProcess } from "node:child_process";

/**
 * PATH and HOME, and only what the test adds: what a user's shell would hand a command, so
 * nothing of the test run's own (its database, its vitest) leaks in. NO_COLOR, so that its
 * output reads as plain text.
 */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { PATH, HOME, TMPDIR, npm_config_cache } = process.env;
  return { PATH, HOME, TMPDIR, npm_config_cache, NO_COLOR: "1", ...extra };
}

export interface Finished {
  readonly code: number | null;
  readonly output: string;
}

/** Runs a command to its end; resolves with its exit code and its stdout and stderr together. */
export function runToEnd(command: string, args: readonly string[], cwd: string, env = userEnv()): Promise<Finished> {
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (c) => (output += c));
  child.stderr.on("data", (c) => (output += c));
  return new Promise((resolve) => {
    child.once("error", (err) => resolve({ code: -1, output: `${output}\n${err.message}` }));
    child.once("close", (code) => resolve({ code, output }));
  });
}

export interface Spawned {
  readonly child: ChildProcess;
  /** Its stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
  /** Sends the signal (to its whole process group when it leads one) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Spawns a command, keeping its output. `group`: it leads a process group of its own, and
 * `stop` signals the whole group, as Ctrl-C on a terminal does (npx, for one, does not pass
 * a signal on to the command it runs).
 */
export function spawnCommand(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, group = false): Spawned {
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: group });
  let output = "";
  child.stdout.on("data", (c) => (output += c));
  child.stderr.on("data", (c) => (output += c));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const stop = (signal: NodeJS.Signals = "SIGTERM") => {
    if (group) process.kill(-child.pid!, signal);
    else child.kill(signal);
    return exited;
  };
  return { child, output: () => output, exited, stop };
}

export interface Serving extends Spawned {
  /** Base URL on loopback. */
  readonly url: string;
}

/** Why a server never listened: its exit code (null when it was killed) and its output. */
export interface StartFailure extends Error {
  exitCode: number | null;
  output: string;
}

/** Resolves once the spawned server logs the port it listens on; rejects (StartFailure) if it exits or times out first. */
export async function whenListening(spawned: Spawned, timeoutMs = 90_000): Promise<Serving> {
  const port = await whenLogged(spawned, /listening on http:\/\/localhost:(\d+)/, "listening", timeoutMs);
  return { ...spawned, url: `http://127.0.0.1:${port}` };
}

/**
 * Resolves with the first group of `pattern` once the spawned process's output has it;
 * rejects (StartFailure) if the process exits first, or kills it if `timeoutMs` passes.
 */
export function whenLogged(spawned: Spawned, pattern: RegExp, what: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void spawned.stop("SIGKILL");
      reject(Object.assign(new Error(`not ${what} within ${timeoutMs} ms:\n${spawned.output()}`), { exitCode: null, output: spawned.output() }));
    }, timeoutMs);
    const onData = () => {
      const found = pattern.exec(spawned.output())?.[1];
      if (found === undefined) return;
      clearTimeout(timer);
      resolve(found);
    };
    onData(); // it may be in the output already
    spawned.child.stdout!.on("data", onData);
    spawned.child.stderr!.on("data", onData);
    void spawned.exited.then((code) => {
      clearTimeout(timer);
      const output = spawned.output();
      reject(Object.assign(new Error(`exited with ${code} before ${what}:\n${output}`), { exitCode: code, output }));
    });
  });
}

/** Starts a server command in a process group of its own and resolves once it listens. */
export function startServing(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Serving> {
  return whenListening(spawnCommand(command, args, cwd, env, true));
}
