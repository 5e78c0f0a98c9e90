// npm start's build step, run only when the sources changed (start.mjs checks): generate
// encore.gen/, then bundle the runtime, the app and the generated code for plain Node,
// with no TypeScript loader at run time. npm packages stay external, loaded as usual.
import { build, type Plugin } from "esbuild";
import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { aliasTarget } from "../loader/aliases.mjs";
import { appRoot, runtimeDir } from "../internal/config/app-root.ts";
import { generate } from "../internal/codegen/generate.ts";
import { ParseError } from "../internal/parser/mod.ts";
import { isAlive } from "../internal/sql/embedded/postmaster.ts";
import { buildsDir, bundleDir } from "./bundle-dir.mjs";
import { nodeBundle } from "./esbuild-node.mjs";

// encore.dev/* and ~encore/* resolve to this runtime, as under the loader hook and vitest.
const encoreAliases: Plugin = {
  name: "encore-selfhost-aliases",
  setup(b) {
    b.onResolve({ filter: /^(encore\.dev|~encore)(\/|$)/ }, (args) => ({ path: aliasTarget(args.path)! }));
  },
};

try {
  const out = bundleDir(appRoot); // named for the sources as they are before anything is read
  generate(appRoot);
  if (!existsSync(out)) {
    const staging = `${out}.${process.pid}.tmp`;
    await build({
      ...nodeBundle,
      entryPoints: { server: path.join(runtimeDir, "cli/serve.ts") },
      outdir: staging,
      outExtension: { ".js": ".mjs" },
      // Code behind a dynamic import (the S3 and NATS providers, the app's handlers)
      // becomes its own chunk, so its npm packages load only when it is used.
      splitting: true,
      plugins: [encoreAliases],
    });
    try {
      renameSync(staging, out);
    } catch (err) {
      // Another build of the same sources landed first: theirs is the same bundle.
      if (!["EEXIST", "ENOTEMPTY"].includes((err as NodeJS.ErrnoException).code ?? "")) throw err;
      rmSync(staging, { recursive: true, force: true });
    }
  }
  removeOtherBuilds(out);
} catch (err) {
  console.error(`build failed: ${err instanceof ParseError ? err.message : (err as Error).stack}`);
  process.exitCode = 1;
}

/**
 * Bundles of earlier sources are dead weight once a newer one lands, as are staging
 * folders whose build died; a build still running keeps its staging folder.
 */
function removeOtherBuilds(current: string): void {
  const dir = buildsDir(appRoot);
  for (const entry of readdirSync(dir)) {
    const abs = path.join(dir, entry);
    const stagingPid = /\.(\d+)\.tmp$/.exec(entry)?.[1];
    if (abs === current || (stagingPid && isAlive(Number(stagingPid)))) continue;
    rmSync(abs, { recursive: true, force: true });
  }
}
