// What the kernel says about a running app and its embedded cluster: which processes
// they are, their proportional memory (PSS) and the CPU time they have used (Linux /proc).
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import path from "node:path";
import { isAlive } from "../runtime/internal/sql/embedded/postmaster.ts";

export { isAlive };

/** Clock ticks per second of /proc/<pid>/stat's times: 100 on every Linux architecture in use. */
const ticksPerSecond = 100;

/** The process listening on a TCP port (IPv4 or IPv6), found through its socket's inode. */
export function listenerPid(port: number): number | null {
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readLines(table).slice(1)) {
      const fields = line.trim().split(/\s+/);
      const localPort = parseInt(fields[1]?.split(":").pop() ?? "", 16);
      if (fields[3] === "0A" && localPort === port) inodes.add(fields[9]!);
    }
  }
  if (inodes.size === 0) return null;
  for (const pid of allPids()) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or not ours to read
    }
    for (const fd of fds) {
      const target = safe(() => readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (target && inodes.has(/^socket:\[(\d+)\]$/.exec(target)?.[1] ?? "")) return pid;
    }
  }
  return null;
}

/** The embedded cluster's postmaster, from the pid file PostgreSQL keeps in its data folder. */
export function postmasterPid(dataDir: string): number | null {
  const first = safe(() => readFileSync(path.join(dataDir, "postgres", "pgdata", "postmaster.pid"), "utf8").split("\n")[0]);
  const pid = Number(first);
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
}

/** Direct children of a process (a postmaster's are its backends and background workers). */
export function childrenOf(parent: number): number[] {
  return allPids().filter((pid) => stat(pid)?.ppid === parent);
}

/** Proportional set size in bytes: shared pages count once, split between the processes sharing them. */
export function pssBytes(pid: number): number {
  const line = readLines(`/proc/${pid}/smaps_rollup`).find((l) => l.startsWith("Pss:"));
  return line ? Number(line.split(/\s+/)[1]) * 1024 : 0;
}

/**
 * CPU seconds used so far by the app and its cluster. Running processes are read to the
 * nanosecond from the scheduler's account of each of their threads; the 10 ms ticks of
 * /proc/<pid>/stat, summed over a dozen processes in a 10 s window, would blur the figure
 * by a whole percent. The postmaster's count of its children that have exited (it waits
 * for each) is in ticks, so backends that come and go between two readings are not missed.
 */
export function cpuSeconds(appPid: number, postmaster: number | null): number {
  let seconds = runSeconds(appPid);
  if (postmaster) {
    const s = stat(postmaster);
    seconds += runSeconds(postmaster) + (s ? s.cutime + s.cstime : 0) / ticksPerSecond;
    for (const child of childrenOf(postmaster)) seconds += runSeconds(child);
  }
  return seconds;
}

/** Time on a CPU of every thread of a running process (/proc/<pid>/task/<tid>/schedstat, in ns). */
function runSeconds(pid: number): number {
  const threads = safe(() => readdirSync(`/proc/${pid}/task`)) ?? [];
  let ns = 0;
  for (const tid of threads) ns += Number(readLines(`/proc/${pid}/task/${tid}/schedstat`)[0]?.split(" ")[0] ?? 0);
  return ns / 1e9;
}

interface Stat {
  readonly ppid: number;
  readonly utime: number;
  readonly stime: number;
  readonly cutime: number;
  readonly cstime: number;
}

function stat(pid: number): Stat | null {
  const text = safe(() => readFileSync(`/proc/${pid}/stat`, "utf8"));
  if (!text) return null;
  // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ")".
  const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { ppid: Number(f[1]), utime: Number(f[11]), stime: Number(f[12]), cutime: Number(f[13]), cstime: Number(f[14]) };
}

function allPids(): number[] {
  return readdirSync("/proc").filter((e) => /^\d+$/.test(e)).map(Number);
}

function readLines(file: string): string[] {
  return safe(() => readFileSync(file, "utf8").split("\n")) ?? [];
}

function safe<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined; // the process ended meanwhile
  }
}
