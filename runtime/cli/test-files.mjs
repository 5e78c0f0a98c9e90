// What `encore-selfhost test` can tell about an app's tests without loading vitest, which
// the app may not have installed: whether a vitest config decides where the tests are,
// and otherwise which files vitest's default include would find.
import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import path from "node:path";

/** The files vitest (1 to 4) looks for, from the root upward: its config, and its workspace (1 to 3). */
const extensions = [".ts", ".mts", ".cts", ".js", ".mjs", ".cjs"];
const configFiles = [
  ...["vitest.config", "vite.config"].flatMap((name) => extensions.map((ext) => name + ext)),
  ...["vitest.workspace", "vitest.projects"].flatMap((name) => [...extensions, ".json"].map((ext) => name + ext)),
];

/** vitest's default include, the same in versions 1 to 4: **\/*.{test,spec}.?(c|m)[jt]s?(x). */
const defaultInclude = /\.(test|spec)\.[cm]?[jt]sx?$/;

/**
 * Folders never searched: dependencies and git's store (excluded by every vitest version),
 * the generated code and the app's local data (excluded by this runtime's plugin). Other
 * version-specific exclusions (dist/ before vitest 4) are searched: a file found there can
 * only send the decision to vitest, never hide a test.
 */
const skipped = new Set(["node_modules", ".git", "encore.gen", ".data"]);

/**
 * Arguments that change where vitest looks or what it does with no tests: with any of them
 * the decision is vitest's.
 */
const decisiveOptions = /^(--root|--dir|--config|--workspace|--project|--passWithNoTests|-r|-c)(=|$)/;

/**
 * The vitest config file that applies to the app, found as vitest finds it (from the app's
 * folder upward); undefined when there is none.
 */
export function vitestConfigFile(appRoot) {
  for (let dir = appRoot; ; dir = path.dirname(dir)) {
    const file = configFiles.map((name) => path.join(dir, name)).find((candidate) => existsSync(candidate));
    if (file) return file;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Whether the command line leaves where the tests are, and what no tests means, as without it. */
export function argumentsKeepDefaults(args) {
  return !args.some((arg) => decisiveOptions.test(arg));
}

/**
 * Up to `limit` files of the app matching vitest's default include, as paths relative to
 * the app; symbolic links to folders are followed, as vitest's glob does, once each.
 */
export function defaultTestFiles(appRoot, limit = 3) {
  const found = [];
  const seen = new Set();
  const visit = (dir) => {
    const real = realpathSync(dir);
    if (seen.has(real)) return;
    seen.add(real);
    for (const entry of entriesOf(dir)) {
      if (found.length >= limit) return;
      const full = path.join(dir, entry.name);
      if (isFolder(entry, full)) {
        if (!skipped.has(entry.name)) visit(full);
      } else if (defaultInclude.test(entry.name)) {
        found.push(path.relative(appRoot, full));
      }
    }
  };
  visit(appRoot);
  return found;
}

/** A folder's entries; none when it cannot be read, which vitest's glob skips as well. */
function entriesOf(dir) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function isFolder(entry, full) {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return statSync(full).isDirectory();
  } catch {
    return false; // a dangling link: nothing to search
  }
}
