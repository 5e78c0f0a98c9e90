import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { MigrationError, readMigrationsFolder, type Migration } from "./migrations.ts";

/**
 * Prisma Migrate's layout (`prisma migrate dev`): one folder per migration, named
 * `<timestamp>_<name>` (such as `20240105093000_init`), holding `migration.sql`;
 * beside them `migration_lock.toml`, which names the provider.
 *
 * As Encore reads it (tsparser's sqldb resource, `source: "prisma"`): the folder's
 * leading number is the migration's version, migrations run in version order, and
 * other files are ignored. Timestamps of migrations made on different branches
 * interleave, so the set is tracked one row per migration rather than by the latest
 * version (applyMigrations' "each" tracking, Encore's non-sequential migrator).
 */
const folderName = /^(\d+)_(.*)$/;
const lockFile = "migration_lock.toml";

export function readPrismaMigrations(appRoot: string, dir: string): Migration[] {
  const { abs, entries } = readMigrationsFolder(appRoot, dir);
  checkProvider(abs, dir);
  const byVersion = new Map<number, Migration>();
  for (const entry of entries) {
    if (!statSync(path.join(abs, entry)).isDirectory()) continue;
    const match = folderName.exec(entry);
    if (!match) {
      throw new MigrationError(
        `migration folder ${dir}/${entry} is badly named: expected <timestamp>_<name>, such as 20240105093000_init, as prisma migrate writes it`,
      );
    }
    const file = `${dir}/${entry}/migration.sql`;
    if (!existsSync(path.join(abs, entry, "migration.sql"))) throw new MigrationError(`migration ${file} is missing`);
    const version = Number(match[1]);
    if (!Number.isSafeInteger(version)) throw new MigrationError(`migration folder ${dir}/${entry}: its number is too large`);
    const clash = byVersion.get(version);
    if (clash) throw new MigrationError(`migrations ${clash.file} and ${file} share version ${version}`);
    byVersion.set(version, { version, name: match[2]!, file, sql: readFileSync(path.join(abs, entry, "migration.sql"), "utf8") });
  }
  return [...byVersion.values()].sort((a, b) => a.version - b.version);
}

/** Migrations written for another database (provider = "sqlite") would fail half-way: refused up front. */
function checkProvider(absDir: string, dir: string): void {
  let text: string;
  try {
    text = readFileSync(path.join(absDir, lockFile), "utf8");
  } catch {
    return; // optional: Encore does not read it either
  }
  const provider = /^\s*provider\s*=\s*"([^"]*)"/m.exec(text)?.[1];
  if (provider !== undefined && provider !== "postgresql") {
    throw new MigrationError(`${dir}/${lockFile} names the provider "${provider}"; these migrations need provider = "postgresql" in schema.prisma`);
  }
}
