// The one rule that points the app's Encore imports at this runtime, shared by the
// Node loader hook, the bundler and vitest. Plain JavaScript because Node loads
// loader hooks in their own thread, before any TypeScript support is in place.
import { existsSync } from "node:fs";
import path from "node:path";
import { appRoot, runtimeDir } from "../internal/config/app-root.mjs";
import { encoreDevRefusal, isEncoreDevSpecifier } from "../internal/parser/sdk/encore-dev-modules.mjs";

export { appRoot };

/**
 * "encore.dev" and "encore.dev/<sub>" map to this package's encore.dev/<sub>/mod.ts, for
 * the modules encore.dev publishes and this runtime implements; any other encore.dev
 * specifier throws, naming `importer` when given (generation refuses those imports first,
 * with file and line: this catches the files it does not read, such as tests).
 * "~encore/<sub>" maps to encore.gen/<sub>.ts, or else encore.gen/<sub>/index.ts, as
 * TypeScript resolves the app's paths entry for it. Anything else: null.
 */
export function aliasTarget(specifier, importer) {
  if (isEncoreDevSpecifier(specifier)) {
    const refusal = encoreDevRefusal(specifier);
    if (refusal) throw new Error(`${importer ? path.relative(appRoot, importer).split(path.sep).join("/") : "the app"} imports ${refusal}`);
    return path.join(runtimeDir(), specifier, "mod.ts");
  }
  if (specifier.startsWith("~encore/")) {
    const generated = path.join(appRoot, "encore.gen", specifier.slice("~encore/".length));
    return existsSync(`${generated}.ts`) ? `${generated}.ts` : path.join(generated, "index.ts");
  }
  return null;
}
