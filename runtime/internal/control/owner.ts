import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Who owns the embedded (PGlite) data: one process at a time, or the files are
 * corrupted. The owner writes <dataDir>/pglite/owner.json; a server adds the
 * address and token of its control routes, so the operators' command can go
 * through it instead of opening the files itself.
 */
export interface OwnerRecord {
  readonly pid: number;
  /** Base URL of the owning server's control routes; null while starting, or for a command. */
  readonly url: string | null;
  /** Bearer token for those routes. The file is readable by its owner only. */
  readonly token: string | null;
}

export interface OwnerClaim {
  /** Records where the control routes listen. */
  publish(url: string, token: string): void;
  /** Gives the data up; only this process's own record is removed. */
  release(): void;
}

export class DataInUseError extends Error {
  constructor(dataDir: string, readonly owner: OwnerRecord) {
    super(`the embedded database under ${dataDir} is in use by process ${owner.pid}`);
    this.name = "DataInUseError";
  }
}

function ownerFile(dataDir: string): string {
  return path.join(dataDir, "pglite", "owner.json");
}

/** The live owner of the embedded data, if any (a record left by a dead process is ignored). */
export function currentOwner(dataDir: string): OwnerRecord | null {
  const record = readRecord(ownerFile(dataDir));
  return record && isAlive(record.pid) ? record : null;
}

/** Takes the embedded data for this process, or throws DataInUseError naming the owner. */
export function claimEmbeddedData(dataDir: string): OwnerClaim {
  const file = ownerFile(dataDir);
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ pid: process.pid, url: null, token: null } satisfies OwnerRecord), { mode: 0o600 });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        // A hard link appears whole and fails if the name exists, so of two
        // processes starting at once exactly one wins.
        linkSync(tmp, file);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw err;
        const owner = readRecord(file);
        if (owner && isAlive(owner.pid)) throw new DataInUseError(dataDir, owner);
        unlinkSync(file); // left by a process that died without releasing it
      }
    }
  } finally {
    unlinkSync(tmp);
  }
  return {
    publish(url, token) {
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ pid: process.pid, url, token } satisfies OwnerRecord), { mode: 0o600 });
      renameSync(tmp, file);
    },
    release() {
      if (readRecord(file)?.pid === process.pid) unlinkSync(file);
    },
  };
}

function readRecord(file: string): OwnerRecord | null {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as OwnerRecord;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM"; // alive, owned by another user
  }
}
