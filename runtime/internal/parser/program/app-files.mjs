// Which files of an app the parser reads, by the rules of Encore's own parser: it walks the
// whole app folder, every sub-folder included (one with its own package.json too), leaves
// out by name node_modules, encore.gen, __tests__, whatever starts with "." and test
// files, follows no symbolic link, and reads the .ts files. Plain JavaScript because `start`
// hashes the same files (sources-digest.mjs) before any TypeScript support is loaded.
import { readdirSync, realpathSync, statSync } from "node:fs";
import path from "node:path";

const ignoredNames = new Set(["node_modules", "encore.gen", "__tests__"]);

/** Source files of any flavour: what an app could declare Encore resources in. */
const sourceFile = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/** Test files, whatever their flavour: Encore leaves .test.ts, .spec.ts, .test.js and .spec.js out by name, and reads no other flavour. */
const testFile = /\.(test|spec)\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/** True for a file or folder name Encore leaves out wherever it is. */
export function isIgnoredName(name) {
  return ignoredNames.has(name) || name.startsWith(".") || testFile.test(name);
}

/**
 * The app's files, absolute and sorted: `parsed`, the .ts files Encore reads; `unread`,
 * the other source files it walks past without reading (another flavour than .ts, or
 * reached only through a symbolic link), each with `link`, the link it lies behind, or
 * null. The caller checks that those declare nothing: Encore would silently lose it.
 * `skip` lists folders that are not the app's at all (this runtime's own package, when
 * the app holds it as a workspace member: it is what node_modules/encore-selfhost is).
 */
export function appFiles(root, { skip = [] } = {}) {
  const parsed = [];
  const unread = [];
  // Folders are compared by their real paths; below the root and no link, that is the root's real path and the rest.
  const start = path.resolve(root);
  const top = realpathSync(start);
  const skipped = new Set(skip.map((dir) => realpathSync(dir)));
  const realOf = (full, link) => (link === null ? path.join(top, path.relative(start, full)) : realpathSync(full));
  const seenLinks = new Set();
  const visit = (dir, link) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (isIgnoredName(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        visitLink(full, link ?? full);
      } else if (entry.isDirectory()) {
        if (!skipped.has(realOf(full, link))) visit(full, link);
      } else if (entry.isFile() && sourceFile.test(entry.name)) {
        if (link === null && entry.name.endsWith(".ts")) parsed.push(full);
        else unread.push({ file: full, link });
      }
    }
  };
  const visitLink = (full, link) => {
    let real;
    try {
      real = realpathSync(full);
    } catch {
      return; // a dangling link holds nothing
    }
    // What a link leads to inside the app is walked where it lies, or left out there by the rules above.
    if (isWithin(real, top)) return;
    const stats = statSync(real);
    if (stats.isFile() && sourceFile.test(full)) unread.push({ file: full, link });
    // A link may lead back above itself: each real folder is looked into once.
    if (!stats.isDirectory() || seenLinks.has(real) || skipped.has(real)) return;
    seenLinks.add(real);
    visit(full, link);
  };
  visit(start, null);
  return { parsed: parsed.sort(byPath), unread: unread.sort((a, b) => byPath(a.file, b.file)) };
}

function isWithin(file, dir) {
  const relative = path.relative(dir, file);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

function byPath(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}
