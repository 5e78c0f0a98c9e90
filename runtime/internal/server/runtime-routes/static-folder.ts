import { realpath } from "node:fs/promises";
import path from "node:path";

/**
 * Which request paths an api.static folder may answer with a file. Stricter than Encore's
 * runtime (tower-http's ServeDir, which refuses `..` but serves dotfiles and follows
 * symlinks anywhere), never laxer:
 * - no segment may start with "." (`.env`, `.git/`, `..`): dotfiles are where secrets and
 *   repository data live, and a build output has none worth serving;
 * - the file's real path, symlinks resolved, and that of the index.html a folder would be
 *   answered with, must lie inside the folder's real path: a symlink inside may point at
 *   another file inside, never out.
 * A refused path is answered as a missing file, so a client cannot tell the two apart.
 *
 * The check runs on the path as the file server will open it (the route's wildcard,
 * already percent-decoded once by the router, which is what send opens). A file swapped
 * for a symlink between this check and the read is not guarded against: that takes
 * write access to the folder, which is already everything.
 */
export class StaticFolder {
  readonly #dir: string;
  /** The folder's real path, found on first use and again if the folder itself was re-pointed. */
  #real: Promise<string | null> | null = null;

  constructor(dir: string) {
    this.#dir = dir;
  }

  /** Whether `requestPath` (starting with "/") may be answered from the folder. */
  async holds(requestPath: string): Promise<boolean> {
    // Backslashes too: no separator on POSIX, but the file server refuses `\..\` with a 403.
    if (requestPath.split(/[\\/]/).some((segment) => segment.startsWith("."))) return false;
    const file = path.join(this.#dir, requestPath);
    const [real, index] = await Promise.all([realOrMissing(file), realOrMissing(path.join(file, "index.html"))]);
    if (real === false || index === false) return false;
    const inside = async () => {
      const root = await this.#realDir();
      return root !== null && [real, index].every((p) => p === null || isWithin(p, root));
    };
    if (await inside()) return true;
    this.#real = null; // the folder may be a symlink that now leads elsewhere: look once more
    return inside();
  }

  #realDir(): Promise<string | null> {
    this.#real ??= realOrMissing(this.#dir).then((p) => (p === false ? null : p));
    return this.#real;
  }
}

/** The real path; null when there is nothing there (the file server answers not found); false on any other error. */
async function realOrMissing(p: string): Promise<string | null | false> {
  try {
    return await realpath(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? null : false;
  }
}

function isWithin(p: string, root: string): boolean {
  return p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}
