// encore-selfhost build: a deployable folder, as `encore build docker` makes an image. It
// holds the server bundle (production mode), what the server reads at run time, a
// package.json with only the npm packages the bundle imports, and a Dockerfile.
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { appRoot } from "../internal/config/app-root.ts";
import { generate } from "../internal/codegen/generate.ts";
import { ParseError } from "../internal/parser/mod.ts";
import { copyRuntimeFiles, deployRequirements, runCommand, runtimeDependencies, writeDockerfile, writeManifest } from "./deploy-folder.ts";
import { runtimePackagesForDeploy } from "./runtime-packages.mjs";
import { bundleServer } from "./server-bundle.ts";

try {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { out: { type: "string" } } });
  const out = values.out ? path.resolve(values.out) : path.join(appRoot, "encore.gen", "deploy");
  if (out === appRoot || appRoot.startsWith(`${out}${path.sep}`)) throw new Error(`--out ${out} would replace the app itself`);
  const { meta } = generate(appRoot);
  rmSync(out, { recursive: true, force: true });
  const runtimePackages = runtimePackagesForDeploy(appRoot);
  const metafile = (await bundleServer(out, { entry: "serve-production.ts", runtimePackages: runtimePackages.plugin }))!;
  copyRuntimeFiles(appRoot, out, meta);
  const dependencies = runtimeDependencies(appRoot, metafile, runtimePackages.aliases);
  writeManifest(out, appName(), dependencies);
  const requirements = deployRequirements(meta);
  writeDockerfile(out, requirements);
  const shown = path.relative(process.cwd(), out) || ".";
  const needed = ["DATABASE_URL", ...requirements.secrets.map((name) => `${name} (a secret)`), ...(requirements.buckets ? ["for objects, OBJECTS_SIGNING_KEY and DATA_DIR (a volume) or OBJECTS_PROVIDER=s3 and OBJECTS_S3_*"] : [])];
  console.log(`built ${shown}: server.mjs and ${Object.keys(dependencies).length} npm dependencies, production mode
set in production: ${needed.join(", ")}
run it:   cd ${shown} && npm install --omit=dev && DATABASE_URL=postgres://... node server.mjs
or:       docker build -t my-app ${shown} && ${runCommand(requirements, "my-app")}
under a process manager (systemd, pm2, a container), run node server.mjs itself, not npm start or npx:
a SIGTERM sent to npm does not reach the server, which goes on running`);
} catch (err) {
  console.error(`build failed: ${err instanceof ParseError ? err.message : (err as Error).message}`);
  process.exitCode = 1;
}

function appName(): string {
  const manifest = path.join(appRoot, "package.json");
  const name = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name : undefined;
  return (name ?? path.basename(appRoot)).replace(/^@[^/]+\//, "");
}
