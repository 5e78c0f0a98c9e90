// Imports the app modules given as arguments, in this process, and reports on stdout, as
// JSON lines, every file of at least BIG_READ_BYTES bytes opened or read other than by
// Node's module loader: once the imports are done, with what they left running (Node's
// active handles and requests that were not there before), and again once nothing is left to run.
// Spawned by import-does-no-work.test.ts with tsx and the runtime's loader, as a server is.
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { pathToFileURL } from "node:url";

interface BigRead {
  readonly file: string;
  readonly bytes: number;
  /** The function called, and by whom. */
  readonly via: string;
}

const bigReadBytes = Number(process.env.BIG_READ_BYTES);
const bigReads: BigRead[] = [];

function sizeOf(target: unknown): number {
  try {
    if (typeof target === "number") return fs.fstatSync(target).size;
    if (typeof target === "string" || target instanceof URL || Buffer.isBuffer(target)) return fs.statSync(target).size;
  } catch {
    // a file that is not there is read by nobody
  }
  return 0;
}

/** Wraps `owner[name]` (a function whose first argument is a path or a descriptor) to note big files. */
function watch<K extends string>(owner: Record<K, unknown>, name: K, via: string): void {
  const original = owner[name] as (...args: unknown[]) => unknown;
  owner[name] = function (this: unknown, ...args: unknown[]) {
    const bytes = sizeOf(args[0]);
    if (bytes >= bigReadBytes) {
      // Frame 0 is this wrapper: a caller inside Node's module loader is the loading of code, which is what importing is.
      const caller = (new Error().stack ?? "").split("\n")[2]?.trim() ?? "";
      if (!caller.includes("node:internal/modules/")) bigReads.push({ file: String(args[0]), bytes, via: `${via} ${caller}` });
    }
    return original.apply(this, args);
  } as never;
}

for (const name of ["readFileSync", "readFile", "openSync", "open", "createReadStream"] as const) watch(fs, name, `fs.${name}`);
for (const name of ["readFile", "open"] as const) watch(fs.promises, name, `fs.promises.${name}`);
// `import { readFileSync } from "node:fs"` in the modules below sees the wrapped functions.
syncBuiltinESMExports();

const runningBefore = process.getActiveResourcesInfo();
for (const file of process.argv.slice(2)) await import(pathToFileURL(file).href);
const leftRunning = process.getActiveResourcesInfo();
for (const resource of runningBefore) {
  const at = leftRunning.indexOf(resource);
  if (at >= 0) leftRunning.splice(at, 1);
}
console.log(JSON.stringify({ imported: process.argv.length - 2, leftRunning, bigReads }));

process.once("beforeExit", () => console.log(JSON.stringify({ bigReads })));
