// The app, the generated code and the runtime bundled for plain Node, with no TypeScript
// loader at run time: the server that `start`, `run` and `build` run. npm packages stay
// external, loaded from node_modules as usual.
import { build, type Metafile, type Plugin } from "esbuild";
import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { aliasTarget } from "../loader/aliases.mjs";
import { generate } from "../internal/codegen/generate.ts";
import { runtimeDir } from "../internal/config/app-root.ts";
import { isAlive } from "../internal/sql/embedded/postmaster.ts";
import { bundleDir } from "./bundle-dir.mjs";
import { nodeBundle } from "./esbuild-node.mjs";

// encore.dev/* and ~encore/* resolve to this runtime, as under the loader hook and vitest.
const encoreAliases: Plugin = {
  name: "encore-selfhost-aliases",
  setup(b) {
    b.onResolve({ filter: /^(encore\.dev|~encore)(\/|$)/ }, (args) => ({ path: aliasTarget(args.path, args.importer)! }));
  },
};

/**
 * Bundles the server (`entry`, in this folder) into `out` (as server.mjs), landed whole by a rename from a
 * staging folder, so a folder that exists is complete. Returns the bundle's metafile, or
 * undefined when another build of the same sources landed first.
 */
export async function bundleServer(out: string, entry = "serve.ts"): Promise<Metafile | undefined> {
  const staging = `${out}.${process.pid}.tmp`;
  const result = await build({
    ...nodeBundle,
    entryPoints: { server: path.join(runtimeDir(), "cli", entry) },
    outdir: staging,
    outExtension: { ".js": ".mjs" },
    // Code behind a dynamic import (the S3 and NATS providers, the app's handlers)
    // becomes its own chunk, so its npm packages load only when it is used.
    splitting: true,
    metafile: true,
    // The bundled runtime finds its app from where the bundle lies (app-root.mjs).
    define: { "process.env.ENCORE_SELFHOST_BUNDLED": '"1"' },
    plugins: [encoreAliases],
  });
  try {
    renameSync(staging, out);
  } catch (err) {
    // Another build of the same sources landed first: theirs is the same bundle.
    if (!["EEXIST", "ENOTEMPTY"].includes((err as NodeJS.ErrnoException).code ?? "")) throw err;
    rmSync(staging, { recursive: true, force: true });
    return undefined;
  }
  return result.metafile;
}

/**
 * Generates encore.gen/ and bundles the server for the sources as they are, unless that
 * bundle exists: returns its folder, encore.gen/build/<hash of the sources>.
 */
export async function landBundle(appRoot: string): Promise<string> {
  const out = bundleDir(appRoot); // named for the sources as they are before anything is read
  generate(appRoot);
  if (!existsSync(out)) await bundleServer(out);
  return out;
}

/**
 * Bundles of earlier sources are dead weight once a newer one serves, as are staging
 * folders whose build died; a build still running keeps its staging folder.
 */
export function removeOtherBuilds(current: string): void {
  const dir = path.dirname(current);
  for (const entry of readdirSync(dir)) {
    const abs = path.join(dir, entry);
    const stagingPid = /\.(\d+)\.tmp$/.exec(entry)?.[1];
    if (abs === current || (stagingPid && isAlive(Number(stagingPid)))) continue;
    rmSync(abs, { recursive: true, force: true });
  }
}
