import { spawn } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { PostgresBinaries } from "./binaries.ts";
import { assertReachable, type ServerAccount } from "./os-user.ts";
import type { Durability } from "./settings.ts";

/** The files of one embedded cluster, all under `dir` ($DATA_DIR/postgres). */
export interface ClusterFiles {
  readonly dir: string;
  /** PostgreSQL's data folder; owned by the server's account. */
  readonly pgdata: string;
  /** The superuser's password, generated at initialisation (mode 0600). */
  readonly passwordFile: string;
  /** The port last used, tried first at the next start so clients keep their address. */
  readonly portFile: string;
  /** The server's output, started afresh at each start. */
  readonly logFile: string;
}

export function clusterFiles(dir: string): ClusterFiles {
  return {
    dir,
    pgdata: path.join(dir, "pgdata"),
    passwordFile: path.join(dir, "password"),
    portFile: path.join(dir, "port"),
    logFile: path.join(dir, "postgres.log"),
  };
}

/** The superuser every connection uses. */
export const superuser = "postgres";

/**
 * Creates the cluster once (initdb), unless `dir` already holds one. The cluster is
 * made in a staging folder next to `dir` and renamed into place, so `dir` appears
 * complete or not at all, and of two processes initialising at once one wins.
 */
export async function ensureInitialised(
  files: ClusterFiles,
  binaries: PostgresBinaries,
  account: ServerAccount | null,
  durability: Durability,
): Promise<void> {
  if (existsSync(files.dir)) return checkVersion(files, binaries);
  const parent = path.dirname(files.dir);
  mkdirSync(parent, { recursive: true });
  const staging = mkdtempSync(path.join(parent, ".postgres-init-"));
  try {
    chmodSync(staging, 0o755); // the server's account must pass through to pgdata
    const staged = clusterFiles(staging);
    mkdirSync(staged.pgdata, { mode: 0o700 });
    const password = randomBytes(24).toString("base64url");
    writeFileSync(staged.passwordFile, password, { mode: 0o600 });
    // initdb reads the password as the server's account; the file goes once it is done.
    const pwfile = path.join(staging, "initdb-password");
    writeFileSync(pwfile, password, { mode: 0o600 });
    if (account) {
      chownSync(staged.pgdata, account.uid, account.gid);
      chownSync(pwfile, account.uid, account.gid);
      assertReachable(staged.pgdata, account, `the data folder ${files.dir}`);
    }
    await run(binaries.initdb, account, [
      `--pgdata=${staged.pgdata}`,
      `--username=${superuser}`,
      "--auth=scram-sha-256",
      `--pwfile=${pwfile}`,
      "--encoding=UTF8",
      // Messages and the C library's locale are plain C, present on every system; text
      // follows Unicode (lower() of "É" is "é") through PostgreSQL's own built-in provider.
      "--locale=C",
      "--locale-provider=builtin",
      "--builtin-locale=C.UTF-8",
      ...(durability === "disposable" ? ["--no-sync"] : []),
    ]);
    rmSync(pwfile);
    try {
      renameSync(staging, files.dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "EEXIST" && code !== "ENOTEMPTY") throw err;
      // Another process made the cluster first: use theirs.
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  checkVersion(files, binaries);
}

function checkVersion(files: ClusterFiles, binaries: PostgresBinaries): void {
  let version: string;
  try {
    version = readFileSync(path.join(files.pgdata, "PG_VERSION"), "utf8").trim();
  } catch {
    throw new Error(`${files.dir} exists but holds no embedded PostgreSQL cluster; move it away or set DATA_DIR elsewhere`);
  }
  if (version !== binaries.majorVersion) {
    throw new Error(
      `the embedded cluster in ${files.dir} was made by PostgreSQL ${version}, and this runtime runs PostgreSQL ` +
        `${binaries.majorVersion}: dump it with that version's pg_dump and restore it, or move the folder away to start afresh`,
    );
  }
}

function run(program: string, account: ServerAccount | null, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, LC_ALL: "C" },
      ...(account ? { uid: account.uid, gid: account.gid } : {}),
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve();
      else reject(new Error(`initdb failed (exit ${code}): ${output.trim().split("\n").slice(-5).join("\n")}`));
    });
  });
}
