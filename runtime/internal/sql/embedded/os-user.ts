import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import path from "node:path";

/** The unprivileged account the server runs as when this process is root. */
export interface ServerAccount {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

/** PostgreSQL's conventional account; distributions' packages create the same one. */
const accountName = "postgres";

/**
 * PostgreSQL refuses to run as root (a compromised server would own the machine).
 * Under root (containers, CI) the cluster runs as the account `postgres`, created
 * as a system account without a home or shell when it does not exist; otherwise
 * it runs as the current user and this is null.
 */
export function serverAccount(): ServerAccount | null {
  if (process.getuid?.() !== 0) return null;
  const found = lookUp(accountName);
  if (found) return found;
  try {
    execFileSync("useradd", ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", accountName], {
      stdio: "pipe",
    });
  } catch (err) {
    throw new Error(
      `running as root: PostgreSQL refuses to run as root, and the account "${accountName}" to run it as could not be created ` +
        `(${firstLine(err)}). Create an unprivileged account named ${accountName}, run as a non-root user, or set DATABASE_URL.`,
      { cause: err },
    );
  }
  const created = lookUp(accountName);
  if (!created) throw new Error(`the account "${accountName}" was created but cannot be found`);
  return created;
}

/** The account the server runs as under root when it exists already (never creates it); null for any other user. */
export function existingServerAccount(): ServerAccount | null {
  return process.getuid?.() === 0 ? lookUp(accountName) : null;
}

/**
 * Fails, naming the folder, when `account` cannot reach `target`: every folder
 * above it must let that account pass (x), as /root (mode 0700) does not.
 */
export function assertReachable(target: string, account: ServerAccount, what: string): void {
  const blocked = blockingFolder(target, account);
  if (blocked) {
    throw new Error(
      `running as root, the embedded PostgreSQL runs as the account "${account.name}", which cannot enter ${blocked.dir} ` +
        `(mode ${blocked.mode.toString(8)}) to reach ${what}. Put the app and DATA_DIR under a folder that account can enter, ` +
        `run as a non-root user, or set DATABASE_URL.`,
    );
  }
}

/** The first folder above `target` that `account` may not pass through, if any. Permission bits only; ACLs are not consulted. */
export function blockingFolder(target: string, account: ServerAccount): { dir: string; mode: number } | null {
  for (let dir = path.dirname(path.resolve(target)); ; dir = path.dirname(dir)) {
    const stat = statSync(dir, { throwIfNoEntry: false });
    if (stat) {
      const bit = stat.uid === account.uid ? 0o100 : stat.gid === account.gid ? 0o010 : 0o001;
      if ((stat.mode & bit) === 0) return { dir, mode: stat.mode & 0o777 };
    } // else not made yet: its parent decides
    if (path.dirname(dir) === dir) return null;
  }
}

function lookUp(name: string): ServerAccount | null {
  try {
    const uid = Number(execFileSync("id", ["-u", name], { encoding: "utf8", stdio: "pipe" }).trim());
    const gid = Number(execFileSync("id", ["-g", name], { encoding: "utf8", stdio: "pipe" }).trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { name, uid, gid } : null;
  } catch {
    return null;
  }
}

function firstLine(err: unknown): string {
  const stderr = (err as { stderr?: Buffer | string }).stderr?.toString().trim();
  return (stderr || (err as Error).message).split("\n")[0]!;
}
