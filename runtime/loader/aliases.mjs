// The one rule that points the app's Encore imports at this runtime, shared by the
// Node loader hook (npm start) and vitest. Plain JavaScript because Node loads
// loader hooks in their own thread, before any TypeScript support is in place.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The folder with encore.app above this file, wherever a bundler has put it. */
export const appRoot = findAppRoot(path.dirname(fileURLToPath(import.meta.url)));

function findAppRoot(start) {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "encore.app"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no encore.app found above ${start}`);
  }
}

/**
 * "encore.dev" and "encore.dev/<sub>" map to runtime/encore.dev/<sub>/mod.ts;
 * "~encore/<sub>" maps to encore.gen/<sub>/index.ts. Anything else: null.
 */
export function aliasTarget(specifier) {
  if (specifier === "encore.dev") return path.join(appRoot, "runtime/encore.dev/mod.ts");
  if (specifier.startsWith("encore.dev/")) {
    return path.join(appRoot, "runtime/encore.dev", specifier.slice("encore.dev/".length), "mod.ts");
  }
  if (specifier.startsWith("~encore/")) {
    return path.join(appRoot, "encore.gen", specifier.slice("~encore/".length), "index.ts");
  }
  return null;
}
