import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The app root is the folder with encore.app; the runtime lives one level below it. */
export const appRoot: string = findAppRoot(path.dirname(fileURLToPath(import.meta.url)));

/** The runtime's own sources; found from the app root, so bundled code finds them too. */
export const runtimeDir: string = path.join(appRoot, "runtime");

function findAppRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "encore.app"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no encore.app found above ${start}`);
  }
}
