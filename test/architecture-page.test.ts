// docs/architecture.md walks a request through the code file by file; this keeps every
// file and folder it names in existence, and keeps each walk of the app complete, so the
// page cannot drift from the tree.
//
// Completeness rule: a walk is the page's section under its heading (up to the next "## "
// heading), and starts at one entry file. Following the entry file's relative imports
// (ts.preProcessFile, so type-only imports count too), every app file reached must be named
// in that section: runtime/, generated code (~encore/*), npm packages and test files are not
// the app's and are not followed. A folder the section names as a whole (such as
// `url/click-counting/`) covers every file under it, and the closure stops there: the walk
// says what the folder does, not each of its files' imports.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const page = readFileSync(path.join(root, "docs/architecture.md"), "utf8");

// The page names paths from the repository's root, and in the runtime's walk relative
// to the server's folder or to runtime/internal/, as its introduction says; its links
// are relative to docs/.
const bases = ["", "runtime/internal/server/", "runtime/internal/", "docs/"];
// Not files of the repository: generated (not in a fresh clone), or import specifiers.
const notFiles = /^(encore\.gen\/|encore\.dev|node_modules)/;

// Each walk of the app: its section's heading, and the file its request enters the app by.
const walks = [
  { heading: "## POST /shorten, end to end", entry: "links/shorten.ts" },
  { heading: "## GET /:code, end to end", entry: "url/redirect.ts" },
  { heading: "## PATCH /links/:code, end to end", entry: "links/manage-link.ts" },
];

/** Every token of the text that looks like a file (a known extension) or a folder (ends in "/"). */
function namedPaths(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/(?<![\w./~-])([a-z][\w.-]*(?:\/[\w.-]+)*(?:\.(?:ts|mjs|cjs|json|md|sql)|\/))(?![\w/-])/g)) {
    const token = m[1]!;
    if (!token.includes("/") && !/\.(ts|mjs|cjs|md)$/.test(token)) continue;
    if (notFiles.test(token)) continue;
    found.add(token);
  }
  return [...found];
}

/** The page's text from the heading to the next heading of the same level or the end. */
function section(heading: string): string {
  const start = page.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`docs/architecture.md has no section "${heading}"`);
  const end = page.indexOf("\n## ", start + heading.length + 2);
  return page.slice(start, end < 0 ? undefined : end);
}

function isAppFile(file: string): boolean {
  return !/^(runtime|encore\.gen|node_modules)\//.test(file) && !/\.test\.ts$/.test(file);
}

/** A relative specifier as TypeScript resolves it here: the .ts file, or the folder's index.ts. */
function resolveRelative(fromFile: string, specifier: string): string {
  const target = path.join(path.dirname(fromFile), specifier.replace(/\.js$/, ""));
  for (const candidate of [`${target}.ts`, target, path.join(target, "index.ts")]) {
    const absolute = path.join(root, candidate);
    if (existsSync(absolute) && statSync(absolute).isFile()) return candidate;
  }
  throw new Error(`${fromFile}: cannot resolve "${specifier}"`);
}

/** The app files the entry reaches through relative imports, not following the imports of stop files. */
function importClosure(entry: string, stop: (file: string) => boolean): string[] {
  const reached = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (reached.has(file)) continue;
    reached.add(file);
    if (file !== entry && stop(file)) continue;
    const source = readFileSync(path.join(root, file), "utf8");
    for (const imported of ts.preProcessFile(source, true, true).importedFiles) {
      if (!imported.fileName.startsWith(".")) continue;
      const resolved = resolveRelative(file, imported.fileName);
      if (isAppFile(resolved)) pending.push(resolved);
    }
  }
  return [...reached].sort();
}

describe("docs/architecture.md", () => {
  const paths = namedPaths(page);

  test("every file and folder it names exists", () => {
    const missing = paths.filter((p) => !bases.some((base) => existsSync(path.join(root, base, p))));
    expect(missing).toEqual([]);
  });

  test("names the runtime's and the event's steps too", () => {
    for (const p of ["links/outbox/url-store.ts", "analytics/track.ts", "runtime/internal/server/pipeline/front-router.ts"]) {
      expect(paths).toContain(p);
    }
  });

  describe.each(walks)("$heading", ({ heading, entry }) => {
    test(`names ${entry} and every app file it imports, directly or not`, () => {
      const named = namedPaths(section(heading));
      const folders = named.filter((p) => p.endsWith("/"));
      const inNamedFolder = (file: string) => folders.some((folder) => file.startsWith(folder));
      const unnamed = importClosure(entry, inNamedFolder).filter((file) => !named.includes(file) && !inNamedFolder(file));
      expect(unnamed).toEqual([]);
    });
  });
});
