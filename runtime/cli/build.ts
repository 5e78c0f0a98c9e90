// npm start, step 1: generate encore.gen/ (when sources changed), then bundle the
// runtime, the app and the generated code into one file that plain Node runs, with
// no TypeScript loader at run time. npm packages stay external, loaded as usual.
import { build, type Plugin } from "esbuild";
import { renameSync } from "node:fs";
import path from "node:path";
import { aliasTarget } from "../loader/aliases.mjs";
import { appRoot } from "../internal/config/app-root.ts";
import { generate } from "../internal/codegen/generate.ts";
import { ParseError } from "../internal/parser/mod.ts";

export const bundleFile = "encore.gen/build/server.mjs";

// encore.dev/* and ~encore/* resolve to this runtime, as under the loader hook and vitest.
const encoreAliases: Plugin = {
  name: "encore-selfhost-aliases",
  setup(b) {
    b.onResolve({ filter: /^(encore\.dev|~encore)(\/|$)/ }, (args) => ({ path: aliasTarget(args.path)! }));
  },
};

try {
  generate(appRoot);
  const out = path.join(appRoot, bundleFile);
  const tmp = `${out}.${process.pid}.tmp`;
  await build({
    entryPoints: [path.join(appRoot, "runtime/cli/serve.ts")],
    outfile: tmp,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: "inline",
    plugins: [encoreAliases],
    logLevel: "warning",
  });
  renameSync(tmp, out); // several builds may run at once (tests): each lands whole
} catch (err) {
  console.error(`build failed: ${err instanceof ParseError ? err.message : (err as Error).stack}`);
  process.exitCode = 1;
}
