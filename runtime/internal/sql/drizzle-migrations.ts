import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { MigrationError, readMigrationsFolder, type Migration } from "./migrations.ts";

/**
 * drizzle-kit's layout (`drizzle-kit generate`): `<tag>.sql` files, such as
 * `0000_create_notes.sql`, and `meta/_journal.json` listing them in order:
 * `{ "dialect": "postgresql", "entries": [{ "idx": 0, "tag": "0000_create_notes", "when": ... }] }`.
 * `meta/NNNN_snapshot.json` files are drizzle-kit's own state and are not read.
 */
const journalFile = "meta/_journal.json";

interface JournalEntry {
  readonly idx: number;
  readonly tag: string;
}

/**
 * Reads and checks a drizzle-kit migrations folder, in the journal's order (the
 * file names need not sort: drizzle-kit's `prefix: "none"` gives bare names).
 * Migration i of the journal (idx i) becomes version i + 1 in schema_migrations,
 * so the tracking, locking and dirty checks are those of plain SQL migrations.
 *
 * Each file is run whole: drizzle-kit's `--> statement-breakpoint` markers are SQL
 * comments, and both drivers' execScript take several statements in one script,
 * all inside the migration's transaction (as drizzle's own migrator runs them).
 */
export function readDrizzleMigrations(appRoot: string, dir: string): Migration[] {
  const { abs, entries: folder } = readMigrationsFolder(appRoot, dir);
  const files = folder.filter((f) => f.endsWith(".sql"));
  const entries = readJournal(abs, `${dir}/${journalFile}`);
  const listed = new Set(entries.map((e) => `${e.tag}.sql`));
  const stray = files.filter((f) => !listed.has(f)).sort();
  if (stray.length > 0) {
    throw new MigrationError(
      `migration ${dir}/${stray[0]} is not listed in ${dir}/${journalFile}: generate migrations with drizzle-kit generate (drizzle-kit generate --custom for hand-written SQL), or remove the file`,
    );
  }
  return entries.map((entry) => {
    const file = `${dir}/${entry.tag}.sql`;
    if (!existsSync(path.join(abs, `${entry.tag}.sql`))) {
      throw new MigrationError(`migration ${file}, listed in ${dir}/${journalFile}, is missing`);
    }
    return { version: entry.idx + 1, name: entry.tag, file, sql: readFileSync(path.join(abs, `${entry.tag}.sql`), "utf8") };
  });
}

function readJournal(absDir: string, shown: string): JournalEntry[] {
  let text: string;
  try {
    text = readFileSync(path.join(absDir, journalFile), "utf8");
  } catch (err) {
    throw new MigrationError(`${shown} cannot be read (drizzle-kit generate writes it): ${(err as Error).message}`, { cause: err });
  }
  let journal: unknown;
  try {
    journal = JSON.parse(text);
  } catch (err) {
    throw new MigrationError(`${shown} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  const bad = (why: string) => new MigrationError(`${shown} is not a drizzle-kit journal: ${why}`);
  if (typeof journal !== "object" || journal === null || !Array.isArray((journal as { entries?: unknown }).entries)) {
    throw bad(`expected an object with an "entries" array`);
  }
  const dialect = (journal as { dialect?: unknown }).dialect;
  if (dialect !== undefined && dialect !== "postgresql") {
    throw bad(`its dialect is ${JSON.stringify(dialect)}; set dialect: "postgresql" in drizzle.config.ts`);
  }
  const seen = new Set<string>();
  return ((journal as { entries: unknown[] }).entries).map((raw, i) => {
    const entry = raw as Partial<Record<keyof JournalEntry, unknown>> | null;
    if (typeof entry?.tag !== "string" || !/^[A-Za-z0-9_-]+$/.test(entry.tag)) {
      throw bad(`entry ${i} has no valid "tag" (letters, digits, "_" and "-")`);
    }
    // Versions come from idx, so a gap or a reordering would skip or repeat one.
    if (entry.idx !== i) throw bad(`entry ${i} (${entry.tag}) has idx ${JSON.stringify(entry.idx)}, expected ${i}`);
    if (seen.has(entry.tag)) throw bad(`tag ${entry.tag} is listed twice`);
    seen.add(entry.tag);
    return { idx: i, tag: entry.tag };
  });
}
