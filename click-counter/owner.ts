import { readFileSync } from "node:fs";
import { hostname } from "node:os";

/**
 * A process, as its journal names it: enough to tell, at a later start, whether
 * that process still runs. The pid alone is not: pids are reused, and in a
 * container the app restarted gets the same small pid it had. On Linux the boot
 * and the process's start time (in clock ticks since boot) tell an old process
 * from a new one with its pid, as PostgreSQL's postmaster.pid check does with the pid.
 */
export interface Owner {
  readonly pid: number;
  /** The host name (a container's own in a container); absent in journals written before it was recorded. */
  readonly host?: string;
  /** Linux: /proc/sys/kernel/random/boot_id; absent elsewhere. */
  readonly boot?: string;
  /** Linux: field 22 of /proc/<pid>/stat; absent elsewhere. */
  readonly started?: string;
}

export function currentOwner(): Owner {
  const boot = readOrUndefined("/proc/sys/kernel/random/boot_id")?.trim();
  const started = startTime(process.pid);
  const host = hostname();
  return boot && started ? { pid: process.pid, host, boot, started } : { pid: process.pid, host };
}

/**
 * Whether `owner` ran on another host: another machine, or another container sharing the
 * folder (each container has process ids of its own: two replicas are both pid 1). Whether
 * it still runs cannot be told from here, so its journal waits for a process on that host.
 */
export function ofAnotherHost(owner: Owner): boolean {
  return owner.host !== undefined && owner.host !== hostname();
}

/**
 * Whether `owner`, on this host (ofAnotherHost), still runs. A journal with this process's own pid was left by an
 * earlier process that had the same pid (this one has not written its own yet), so
 * that one is gone. Elsewhere than Linux a reused pid reads as alive: its journal is
 * then left for a later start, never replayed while its owner might still write it.
 */
export function isRunning(owner: Owner): boolean {
  if (owner.pid === process.pid) return false;
  if (!pidExists(owner.pid)) return false;
  if (owner.boot === undefined || owner.started === undefined) return true;
  const boot = readOrUndefined("/proc/sys/kernel/random/boot_id")?.trim();
  if (boot !== undefined && boot !== owner.boot) return false; // the machine restarted since
  const started = startTime(owner.pid);
  return started === undefined || started === owner.started;
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM"; // someone else's process
  }
}

/** Field 22 of /proc/<pid>/stat. The command name (field 2) may hold spaces, so fields are counted after its closing parenthesis. */
function startTime(pid: number): string | undefined {
  const stat = readOrUndefined(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
}

function readOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
