// The stop sequence against what else in the process does with SIGTERM and SIGINT: a
// library that stops itself and sends the signal again once it removed its listener (as
// Apollo Server does), one that removes every listener of the signal, and a second signal
// from outside. Real processes, real signals: none of them may end the process before the
// runtime's stop has finished, and the hard timeout still ends a stop that never does.
import { spawn } from "node:child_process";
import { describe, expect, test } from "vitest";
import { appRoot } from "../../config/app-root.ts";
import { shutdownTimeoutMs } from "./shutdown.ts";

interface Stopping {
  /** Signals the process. */
  kill(signal: NodeJS.Signals): void;
  /** Resolves once the output has `text`; rejects if the process exits first. */
  logged(text: string): Promise<void>;
  /** Ends the runtime's drain: the stop goes on to its end. */
  finishDraining(): void;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

async function startProcess(library: "reraise" | "remove-all" | "none"): Promise<Stopping> {
  const child = spawn(process.execPath, ["--import", "tsx", "runtime/test/signal-reraising-process.ts", library], {
    cwd: appRoot,
    env: { ...process.env, LOG_LEVEL: "info" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c) => (output += c));
  child.stderr.on("data", (c) => (output += c));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const logged = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => output.includes(text) && resolve();
      check();
      child.stdout.on("data", check);
      child.stderr.on("data", check);
      void exited.then(({ code, signal }) => reject(new Error(`exited (${signal ?? `code ${code}`}) before logging "${text}":\n${output}`)));
    });
  await logged("ready\n");
  return {
    kill: (signal) => child.kill(signal),
    logged,
    finishDraining: () => child.stdin.write("done\n"),
    exited,
    output: () => output,
  };
}

const secondSignalSeen = '"msg":"already stopping; the signal changes nothing"';

describe.concurrent("the stop sequence, whatever else handles the signal", () => {
  test.each([
    ["stops itself, removes its listener and sends SIGTERM again", "reraise", "SIGTERM"],
    ["removes every listener of SIGINT, the runtime's too, and sends it again", "remove-all", "SIGINT"],
  ] as const)("a library that %s: the runtime's stop finishes, exit 0", async (_library, mode, signal) => {
    const proc = await startProcess(mode);
    proc.kill(signal);
    await proc.logged(`library: stopped, sending ${signal} again`);
    await proc.logged(secondSignalSeen);
    proc.finishDraining();
    expect(await proc.exited, proc.output()).toEqual({ code: 0, signal: null });
    expect(proc.output()).toMatch(/drained\n.*"msg":"stopped"/s);
  }, 60_000);

  test("a SIGINT while the stop after SIGTERM drains is logged and changes nothing: exit 0 after the drain", async () => {
    const proc = await startProcess("none");
    proc.kill("SIGTERM");
    await proc.logged('"msg":"shutting down"');
    proc.kill("SIGINT");
    await proc.logged(secondSignalSeen);
    proc.finishDraining();
    expect(await proc.exited, proc.output()).toEqual({ code: 0, signal: null });
    expect(proc.output()).toMatch(/drained\n.*"msg":"stopped"/s);
  }, 60_000);

  test("a stop that never finishes still ends at the hard timeout, exit 1, the re-sent signal notwithstanding", async () => {
    const proc = await startProcess("reraise");
    const signalled = Date.now();
    proc.kill("SIGTERM");
    await proc.logged(secondSignalSeen);
    expect(await proc.exited, proc.output()).toEqual({ code: 1, signal: null });
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(shutdownTimeoutMs - 100);
    expect(proc.output()).toContain(`shutdown took longer than ${shutdownTimeoutMs} ms; exiting`);
    expect(proc.output()).not.toContain("drained");
  }, 60_000);
});
