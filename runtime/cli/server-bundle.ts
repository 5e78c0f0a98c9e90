// The app, the generated code and the runtime bundled for plain Node, with no TypeScript
// loader at run time: the server that `start`, `run` and `build` run. npm packages stay
// external, loaded from node_modules: the app's as Node finds them from the bundle's folder,
// the runtime's own as it finds them from the runtime's (runtime-packages.mjs).
import { build, type Metafile, type Plugin } from "esbuild";
import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { aliasTarget } from "../loader/aliases.mjs";
import { generate } from "../internal/codegen/generate.ts";
import { runtimeDir } from "../internal/config/app-root.ts";
import { isAlive } from "../internal/sql/embedded/postmaster.ts";
import { bundleDir } from "./bundle-dir.mjs";
import { nodeBundle } from "./esbuild-node.mjs";
import { runtimePackagesHere } from "./runtime-packages.mjs";

// encore.dev/* and ~encore/* resolve to this runtime, as under the loader hook and vitest.
const encoreAliases: Plugin = {
  name: "encore-selfhost-aliases",
  setup(b) {
    b.onResolve({ filter: /^(encore\.dev|~encore)(\/|$)/ }, (args) => ({ path: aliasTarget(args.path, args.importer)! }));
  },
};

/** How a server bundle is made: for running in the app where it is built, or for a deployable folder. */
export interface ServerBundle {
  /** The entry point, in this folder. */
  readonly entry: string;
  /** Where the runtime's own imports go (runtime-packages.mjs). */
  readonly runtimePackages: Plugin;
  /** Values the bundle's code reads as constants. */
  readonly define?: Record<string, string>;
}

/** start's and run's server: its runtime's packages and folder are those of this installation. */
export async function inAppServer(): Promise<ServerBundle> {
  return {
    entry: "serve.ts",
    runtimePackages: await runtimePackagesHere(),
    // Where the runtime is, for what it finds by path (the embedded PostgreSQL's binaries).
    define: { "process.env.ENCORE_SELFHOST_RUNTIME_DIR": JSON.stringify(runtimeDir()) },
  };
}

/**
 * Bundles the server into `out` (as server.mjs), landed whole by a rename from a
 * staging folder, so a folder that exists is complete. Returns the bundle's metafile, or
 * undefined when another build of the same sources landed first.
 */
export async function bundleServer(out: string, bundle: ServerBundle): Promise<Metafile | undefined> {
  const staging = `${out}.${process.pid}.tmp`;
  const result = await build({
    ...nodeBundle,
    entryPoints: { server: path.join(runtimeDir(), "cli", bundle.entry) },
    outdir: staging,
    outExtension: { ".js": ".mjs" },
    // Code behind a dynamic import (the S3 and NATS providers, the app's handlers)
    // becomes its own chunk, so its npm packages load only when it is used.
    splitting: true,
    metafile: true,
    // The bundled runtime finds its app from where the bundle lies (app-root.mjs).
    define: { ...bundle.define, "process.env.ENCORE_SELFHOST_BUNDLED": '"1"' },
    // In this order: encore.dev maps to the runtime's code first, whose imports then resolve from the runtime.
    plugins: [encoreAliases, bundle.runtimePackages],
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
  if (!existsSync(out)) await bundleServer(out, await inAppServer());
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
