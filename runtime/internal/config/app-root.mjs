// Where the app and this runtime are. Plain JavaScript so that the bin, the launcher and
// the loader hooks, which run before any TypeScript support, share it with the rest.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export { packageName, runtimeDir } from "./runtime-dir.mjs";

/** Thrown when no folder above the start holds encore.app; the message says what to do. */
export class NoAppError extends Error {
  name = "NoAppError";
}

/** The nearest folder holding encore.app, from `start` upward. */
export function findAppRoot(start) {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "encore.app"))) return dir;
    if (path.dirname(dir) === dir) {
      throw new NoAppError(`no encore.app in ${path.resolve(start)} or any folder above it: run this inside an Encore.ts app (the folder with encore.app or below it)`);
    }
  }
}

/**
 * The app, found as Encore's CLI finds it: from the current directory upward. The server
 * bundle (bundle.ts defines the marker) looks from where it lies instead, so that
 * `node /srv/app/server.mjs` serves the app it was built from whatever the directory.
 */
export const appRoot = findAppRoot(
  process.env.ENCORE_SELFHOST_BUNDLED === "1" ? path.dirname(fileURLToPath(import.meta.url)) : process.cwd(),
);
