// The npm packages the runtime's own code imports, in the bundles made of it: always the
// runtime's, never the app's. The bundles lie in the app (encore.gen/), where Node would
// find a package of the same name the app has hoisted to its root (an app on ajv 6 beside
// the runtime's ajv 8: the server stopped at start with "'ajv' does not provide an export
// named 'Ajv'"). So an import written in the runtime's code is resolved from the runtime's
// folder, as Node resolves it for a file there. Plain JavaScript: run-ts.mjs uses it too.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { runtimeDir } from "../internal/config/runtime-dir.mjs";

/** The package a bare specifier names: "ajv" for "ajv/dist/2020", "@fastify/static" for itself. */
export function packageNameOf(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** The folder of package `name` as Node finds it from a file in `dir`: the nearest node_modules/<name> upward, real path. */
export function packageDirFrom(dir, name) {
  for (let at = dir; ; at = path.dirname(at)) {
    const candidate = path.join(at, "node_modules", name);
    if (existsSync(path.join(candidate, "package.json"))) return realpathSync(candidate);
    if (path.dirname(at) === at) return undefined;
  }
}

export function versionAt(packageDir) {
  return JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8")).version;
}

/** Where the runtime's code is (its package), and where the packages installed inside it are (theirs, not its code). */
function runtimePlaces() {
  const code = realpathSync(runtimeDir());
  return { code, installed: path.join(code, "node_modules") };
}

function isWithin(file, dir) {
  const relative = path.relative(dir, file);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** esbuild's onResolve for bare specifiers written in the runtime's own code; `decide` says where each goes. */
function runtimeImports(name, decide) {
  return {
    name,
    setup(b) {
      const { code, installed } = runtimePlaces();
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        const specifier = args.path;
        if (specifier.startsWith("node:") || builtinModules.includes(specifier) || path.isAbsolute(specifier)) return undefined;
        const importer = args.importer && realpathSync(args.importer);
        if (!importer || !isWithin(importer, code) || isWithin(importer, installed)) return undefined;
        return decide(specifier, code);
      });
    },
  };
}

/**
 * For bundles that run where they are made, inside the app (start's and run's server, the
 * runtime's own steps): each import of the runtime's code becomes the file URL Node
 * resolves it to from the runtime's folder. The same file as the app's import of the same
 * package when npm installed one copy for both, so they still share it.
 */
export async function runtimePackagesHere() {
  // import.meta.resolve of a module in the runtime's folder resolves as the runtime's code
  // does; this module may itself run bundled elsewhere, so that one is loaded by its path.
  const { resolveHere } = await import(pathToFileURL(path.join(runtimeDir(), "cli", "resolve-here.mjs")).href);
  return runtimeImports("runtime-packages-here", (specifier) => {
    try {
      return { path: resolveHere(specifier), external: true };
    } catch (err) {
      return { errors: [{ text: `the runtime's package ${packageNameOf(specifier)} cannot be found from ${runtimeDir()}: ${err.message}` }] };
    }
  });
}

/**
 * For the deployable folder, whose package.json npm installs afresh: an import of the
 * runtime's code keeps its package's name when the app resolves that name to the same
 * folder (one copy, shared, as in the app), and otherwise goes to an alias,
 * @encore-selfhost-runtime/<name>, installed as `npm:<name>@<the runtime's version>`, so
 * the app's own package of that name and the runtime's are both there. `aliases` maps each
 * alias used to that version spec.
 */
export function runtimePackagesForDeploy(appRoot) {
  const aliases = new Map();
  const plugin = runtimeImports("runtime-packages-for-deploy", (specifier, code) => {
    const name = packageNameOf(specifier);
    const runtimes = packageDirFrom(code, name);
    if (!runtimes) return { errors: [{ text: `the runtime's package ${name} is not installed (looked for it from ${code})` }] };
    if (packageDirFrom(appRoot, name) === runtimes) return { path: specifier, external: true };
    const alias = `@encore-selfhost-runtime/${name.replace(/^@/, "").replace("/", "__")}`;
    aliases.set(alias, `npm:${name}@${versionAt(runtimes)}`);
    return { path: alias + specifier.slice(name.length), external: true };
  });
  return { plugin, aliases };
}

/**
 * Where the runtime's dependencies are installed, and at which versions: part of the name
 * of start's bundle, which holds file URLs into them, so that a reinstall moving one (the
 * app adding a package of the same name, an upgrade) builds the bundle again.
 */
export function runtimePackagesLayout() {
  const { code } = runtimePlaces();
  const { dependencies = {} } = JSON.parse(readFileSync(path.join(code, "package.json"), "utf8"));
  return Object.keys(dependencies)
    .sort()
    .map((name) => {
      const dir = packageDirFrom(code, name);
      return `${name}@${dir ? `${versionAt(dir)} ${dir}` : "missing"}`;
    })
    .join("\n");
}
