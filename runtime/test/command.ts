// Commands a test runs as a user would type them, in a folder of its own, with a clean
// environment: nothing of the test run's own (its database, its vitest) leaks in.
import { spawn, type ChildProcess } from "node:child_process";

/**
 * PATH and HOME, and only what the test adds: what a user's shell would hand a command.
 * NO_COLOR, so that its output reads as plain text.
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

export interface Serving {
  readonly url: string;
  output(): string;
  /** Sends the signal; resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts a server command and resolves once it logs the port it listens on. The command
 * leads a process group of its own, and `stop` signals the whole group, as Ctrl-C on a
 * terminal does: npx, for one, does not pass a signal on to the command it runs.
 */
export function startServing(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 90_000): Promise<Serving> {
  const child: ChildProcess = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.kill(-child.pid!, "SIGKILL");
      reject(new Error(`not listening within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const port = /listening on http:\/\/localhost:(\d+)/.exec(output)?.[1];
      if (!port) return;
      clearTimeout(timer);
      const stop = (signal: NodeJS.Signals = "SIGTERM") => {
        process.kill(-child.pid!, signal);
        return exited;
      };
      resolve({ url: `http://127.0.0.1:${port}`, output: () => output, stop });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening:\n${output}`));
    });
  });
}
