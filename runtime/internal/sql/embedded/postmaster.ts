import { execFileSync } from "node:child_process";
import { readFileSync, unlinkSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** What postmaster.pid says about the server running on a data folder. */
export interface Postmaster {
  readonly pid: number;
  readonly port: number;
  /** "starting", "ready", "stopping" or "standby" (PostgreSQL 10 and later write it). */
  readonly status: string;
}

/**
 * The server holding the data folder, or null when none does. A postmaster.pid
 * left by a server that died (SIGKILL, a crash, a reboot) is stale: its pid is
 * gone, or belongs by now to some other program, as happens in containers where
 * pids start again from 1 at every boot. Such a file is removed, so it never
 * blocks a start. `pgdata` must be the real path the server was started with.
 */
export function runningPostmaster(pgdata: string): Postmaster | null {
  const file = path.join(pgdata, "postmaster.pid");
  let lines: string[];
  try {
    lines = readFileSync(file, "utf8").split("\n");
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0) return null; // being written right now, or damaged
  if (!isServerOf(pid, pgdata)) {
    try {
      unlinkSync(file);
    } catch {
      // the server's own start may just have replaced it
    }
    return null;
  }
  return { pid, port, status: (lines[7] ?? "").trim() };
}

/** Sends a fast shutdown (SIGINT: disconnect clients, checkpoint, exit) and waits until the server is gone. */
export async function stopPostmaster(pgdata: string, timeoutMs: number): Promise<void> {
  const server = runningPostmaster(pgdata);
  if (!server) return;
  try {
    process.kill(server.pid, "SIGINT");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ESRCH") return;
    throw new Error(`cannot stop the embedded PostgreSQL (pid ${server.pid}): ${(err as Error).message}`, { cause: err });
  }
  await waitUntilGone(server.pid, timeoutMs);
}

/** Waits for a process to exit; shutdown and start-up are bounded, so polling here never idles. */
export async function waitUntilGone(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) throw new Error(`the embedded PostgreSQL (pid ${pid}) did not stop within ${timeoutMs} ms`);
    await sleep(20);
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM"; // alive, another user's
  }
}

/**
 * Whether the process is the server started on this data folder: its command line
 * (`postgres -D <pgdata> ...`) names the folder. Where the command line cannot be
 * read, any live process counts, and PostgreSQL's own lock check decides.
 */
function isServerOf(pid: number, pgdata: string): boolean {
  if (!isAlive(pid)) return false;
  const args = commandLine(pid);
  return args === null || args.includes(pgdata);
}

function commandLine(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  } catch {
    try {
      return execFileSync("ps", ["-o", "args=", "-p", String(pid)], { encoding: "utf8", stdio: "pipe" });
    } catch {
      return null;
    }
  }
}
