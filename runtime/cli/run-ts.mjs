// Runs one of the runtime's TypeScript entry points on plain Node: `node run-ts.mjs <entry.ts>`.
// esbuild bundles it (about 60 ms) into encore.gen/.tools, inside the app, so its npm
// imports and the app root resolve from there as from the sources. Why not tsx: its
// loader hooks slow every module load, and loading TypeScript itself took 0.97 s under
// tsx against 0.23 s plainly required (measured on a 2-core machine).
import { build } from "esbuild";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { appRoot } from "../internal/config/app-root.mjs";
import { nodeBundle } from "./esbuild-node.mjs";

const entry = path.resolve(process.argv[2]);
const toolsDir = path.join(appRoot, "encore.gen", ".tools");

/**
 * `import ts from "typescript"` becomes a require(): Node's ESM import of a CommonJS
 * module first scans its source for export names, 0.3 s for TypeScript's 9 MB.
 */
const typescriptByRequire = {
  name: "typescript-by-require",
  setup(b) {
    b.onResolve({ filter: /^typescript$/ }, () => ({ path: "typescript", namespace: "typescript-by-require" }));
    b.onLoad({ filter: /.*/, namespace: "typescript-by-require" }, () => ({
      contents: 'import { createRequire } from "node:module"; export default createRequire(import.meta.url)("typescript");',
      loader: "js",
    }));
  },
};

mkdirSync(toolsDir, { recursive: true });
const out = path.join(toolsDir, `${path.basename(entry, ".ts")}.${process.pid}.mjs`);
await build({ ...nodeBundle, entryPoints: [entry], outfile: out, plugins: [typescriptByRequire] });
process.setSourceMapsEnabled(true);
try {
  await import(pathToFileURL(out).href);
} finally {
  rmSync(out, { force: true });
}
