// Where the app and this runtime are. Plain JavaScript so that the launcher (npm start)
// and the loader hooks, which run before any TypeScript support, share it with the rest.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The app root is the folder with encore.app above this file, wherever a bundler has put it. */
export const appRoot = findAppRoot(path.dirname(fileURLToPath(import.meta.url)));

/** The runtime's own sources, one level below the app root. */
export const runtimeDir = path.join(appRoot, "runtime");

function findAppRoot(start) {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "encore.app"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no encore.app found above ${start}`);
  }
}
