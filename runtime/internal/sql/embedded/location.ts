import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { blockingFolder, type ServerAccount } from "./os-user.ts";

/**
 * Where clusters go that the server's account cannot reach in DATA_DIR: a system
 * folder every account may pass through, kept across reboots (unlike /tmp).
 */
export const sharedClustersDir = "/var/lib/encore-selfhost";

/** Where a cluster lives, and why not in the folder asked for when it does not. */
export interface ClusterHome {
  /** The folder holding pgdata/, password, port and postgres.log. */
  readonly dir: string;
  /** Null when `dir` is the folder asked for ($DATA_DIR/postgres); else a sentence saying why not. */
  readonly movedBecause: string | null;
}

/**
 * Where the cluster asked for in `dir` ($DATA_DIR/postgres) lives. Only under root
 * (`account` set: the server runs as that account) can it be elsewhere: when that
 * account cannot enter a folder above `dir` (a clone in /root, mode 0700), the
 * cluster lives in `shared`, in a folder named after DATA_DIR's real path, so each
 * app has its own and finds it again at every start. A cluster already made is
 * used where it is: one in `dir` first, then one in `shared`, so changing a
 * folder's mode later never hides the data behind a fresh, empty cluster.
 * Any other user runs the server as themself: `account` is null and this is `dir`.
 */
export function clusterHome(dir: string, account: ServerAccount | null, shared = sharedClustersDir): ClusterHome {
  const asked = { dir, movedBecause: null };
  if (!account || existsSync(dir)) return asked;
  const blocked = blockingFolder(dir, account);
  const moved = sharedClusterDir(dir, shared);
  if (existsSync(moved)) {
    const why = blocked ? cannotEnter(account, blocked) : `it was made there when the account "${account.name}" could not reach ${dir}`;
    return { dir: moved, movedBecause: why };
  }
  return blocked ? { dir: moved, movedBecause: cannotEnter(account, blocked) } : asked;
}

/** The folder in `shared` for the cluster asked for in `dir`: DATA_DIR's real path, readable, plus a hash of it. */
export function sharedClusterDir(dir: string, shared = sharedClustersDir): string {
  const dataDir = realPathOf(path.dirname(path.resolve(dir)));
  const readable = dataDir.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(-40);
  const hash = createHash("sha256").update(dataDir).digest("hex").slice(0, 12);
  return path.join(shared, `${readable}-${hash}`, path.basename(dir));
}

/**
 * Makes the two folders above a cluster in `shared` (the cluster itself is made by
 * initdb's rename): passable by the server's account whatever the umask, and
 * listable by root alone.
 * Fails with the ways out when the system folder cannot be written (a read-only
 * root file system).
 */
export function prepareSharedHome(home: ClusterHome, asked: string): void {
  const parent = path.dirname(home.dir);
  try {
    mkdirSync(parent, { recursive: true, mode: 0o711 });
    chmodSync(path.dirname(parent), 0o711);
    chmodSync(parent, 0o711);
  } catch (err) {
    throw new Error(
      `running as root, the embedded PostgreSQL cannot stay in ${asked}: ${home.movedBecause}; ` +
        `and ${parent} cannot be made to hold it instead (${(err as Error).message}). ` +
        `Set DATA_DIR to a folder that account can enter, or set DATABASE_URL to a PostgreSQL server.`,
      { cause: err },
    );
  }
}

function cannotEnter(account: ServerAccount, blocked: { dir: string; mode: number }): string {
  return `the account "${account.name}" it runs as (PostgreSQL refuses to run as root) cannot enter ${blocked.dir} (mode ${blocked.mode.toString(8)})`;
}

/** The real path of `target`, through its nearest existing folder when it is not made yet. */
function realPathOf(target: string): string {
  const rest: string[] = [];
  for (let dir = target; ; dir = path.dirname(dir)) {
    try {
      return path.join(realpathSync(dir), ...rest);
    } catch {
      if (path.dirname(dir) === dir) return target;
      rest.unshift(path.basename(dir));
    }
  }
}
