// docs/architecture.md walks a request through the code file by file; this keeps every
// file and folder it names in existence, so the walk cannot drift from the tree.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const page = readFileSync(path.join(root, "docs/architecture.md"), "utf8");

// The page names paths from the repository's root, and in the runtime's walk relative
// to the server's folder or to runtime/internal/, as its introduction says; its links
// are relative to docs/.
const bases = ["", "runtime/internal/server/", "runtime/internal/", "docs/"];
// Not files of the repository: generated (not in a fresh clone), or import specifiers.
const notFiles = /^(encore\.gen\/|encore\.dev|node_modules)/;

/** Every token of the page that looks like a file (a known extension) or a folder (ends in "/"). */
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

describe("docs/architecture.md", () => {
  const paths = namedPaths(page);

  test("names the files of both walks", () => {
    for (const p of ["url/shorten.ts", "url/redirect.ts", "url/outbox/url-store.ts", "analytics/track.ts", "runtime/internal/server/pipeline/front-router.ts"]) {
      expect(paths).toContain(p);
    }
  });

  test("every file and folder it names exists", () => {
    const missing = paths.filter((p) => !bases.some((base) => existsSync(path.join(root, base, p))));
    expect(missing).toEqual([]);
  });
});
