// What `build` writes beside the bundle: the files the server reads at run time, a
// package.json naming only the npm packages the bundle imports, and a Dockerfile.
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import path from "node:path";
import type { Metafile } from "esbuild";
import type { AppMeta } from "../internal/meta/types.ts";
import { packageNameOf } from "./runtime-packages.mjs";

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
 * The npm packages the bundle imports, at the versions installed for the app, and under
 * their aliases (`aliases`: alias to `npm:<name>@<version>`) the runtime's own that the app
 * resolves to another copy of the same name (runtime-packages.mjs). The embedded PostgreSQL
 * is left out: a deployed server is given DATABASE_URL.
 */
export function runtimeDependencies(appRoot: string, metafile: Metafile, aliases: ReadonlyMap<string, string>): Record<string, string> {
  const builtins = new Set(builtinModules);
  const names = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const imported of output.imports) {
      if (!imported.external || imported.path.startsWith("node:") || builtins.has(imported.path)) continue;
      names.add(packageNameOf(imported.path));
    }
  }
  const deps: Record<string, string> = {};
  for (const name of [...names].sort()) deps[name] = aliases.get(name) ?? installedVersion(appRoot, name);
  return deps;
}

function installedVersion(appRoot: string, name: string): string {
  // Resolve the package's entry, then walk up to its package.json: not every package exports that file.
  const entry = createRequire(path.join(appRoot, "package.json")).resolve(name);
  for (let dir = path.dirname(entry); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; version?: string };
    if (pkg.name === name && pkg.version) return pkg.version;
  }
  throw new Error(`cannot find the installed version of ${name}`);
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

export function writeDockerfile(out: string): void {
  writeFileSync(
    path.join(out, "Dockerfile"),
    `# Built by encore-selfhost build. docker build -t my-app . && docker run -e DATABASE_URL=... -p 4000:4000 my-app
FROM node:20-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json ./
RUN npm install --omit=dev --no-audit --no-fund
COPY . .
USER node
EXPOSE 4000
CMD ["node", "--enable-source-maps", "server.mjs"]
`,
  );
  writeFileSync(path.join(out, ".dockerignore"), "node_modules\n.data\n");
}
