// Runs one of the runtime's TypeScript entry points on plain Node, in this process.
// esbuild bundles it (about 60 ms) into encore.gen/.tools, inside the app, its npm packages
// left to Node but resolved from the runtime's folder (runtime-packages.mjs). Why not tsx:
// its loader hooks slow every module load, and loading TypeScript itself took 0.97 s
// under tsx against 0.23 s plainly required (measured on a 2-core machine).
// As a script: `node run-ts.mjs <entry.ts> [args]`.
import { build } from "esbuild";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { appRoot, runtimeDir } from "../internal/config/app-root.mjs";
import { nodeBundle } from "./esbuild-node.mjs";
import { runtimePackagesHere } from "./runtime-packages.mjs";

/**
 * `import ts from "typescript"` becomes a require() (of the runtime's TypeScript): Node's
 * ESM import of a CommonJS module first scans its source for export names, 0.3 s for
 * TypeScript's 9 MB.
 */
const typescriptByRequire = {
  name: "typescript-by-require",
  setup(b) {
    const runtimeManifest = JSON.stringify(pathToFileURL(path.join(runtimeDir(), "package.json")).href);
    b.onResolve({ filter: /^typescript$/ }, () => ({ path: "typescript", namespace: "typescript-by-require" }));
    b.onLoad({ filter: /.*/, namespace: "typescript-by-require" }, () => ({
      contents: `import { createRequire } from "node:module"; export default createRequire(${runtimeManifest})("typescript");`,
      loader: "js",
    }));
  },
};

/** Runs `entry` (a .ts file) with `args` as its process.argv tail; resolves when its top level has run. */
export async function runTypeScript(entry, args = []) {
  const toolsDir = path.join(appRoot, "encore.gen", ".tools");
  mkdirSync(toolsDir, { recursive: true });
  const out = path.join(toolsDir, `${path.basename(entry, ".ts")}.${process.pid}.mjs`);
  await build({
    ...nodeBundle,
    entryPoints: [entry],
    outfile: out,
    // The bundle lies in the app, far from this package: tell it where the package is.
    define: { "process.env.ENCORE_SELFHOST_RUNTIME_DIR": JSON.stringify(runtimeDir()) },
    plugins: [typescriptByRequire, await runtimePackagesHere()],
  });
  process.setSourceMapsEnabled(true);
  process.argv = [process.argv[0], entry, ...args];
  try {
    await import(pathToFileURL(out).href);
  } finally {
    rmSync(out, { force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runTypeScript(path.resolve(process.argv[2]), process.argv.slice(3));
}
