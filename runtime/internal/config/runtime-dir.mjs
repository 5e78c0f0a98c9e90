// Where this runtime's own package is. Apart from app-root.mjs, which finds the app as it
// is imported: the parser needs this folder wherever it runs, app or not.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** This package's name on npm, as apps depend on it. */
export const packageName = "encore-selfhost";

let runtimeDirCache;

/**
 * This package's folder: found upward from this file. The runtime's steps run bundled
 * elsewhere (run-ts.mjs), which defines the folder it bundled them from.
 */
export function runtimeDir() {
  runtimeDirCache ??= process.env.ENCORE_SELFHOST_RUNTIME_DIR ?? packageDirAbove(path.dirname(fileURLToPath(import.meta.url)));
  if (!runtimeDirCache) throw new Error(`no ${packageName} package above ${fileURLToPath(import.meta.url)}`);
  return runtimeDirCache;
}

function packageDirAbove(start) {
  for (let dir = start; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).name === packageName) return dir;
  }
  return undefined;
}
