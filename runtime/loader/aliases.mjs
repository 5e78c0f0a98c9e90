// The one rule that points the app's Encore imports at this runtime, shared by the
// Node loader hook, the bundler and vitest. Plain JavaScript because Node loads
// loader hooks in their own thread, before any TypeScript support is in place.
import { existsSync } from "node:fs";
import path from "node:path";
import { appRoot, runtimeDir } from "../internal/config/app-root.mjs";

export { appRoot };

/**
 * "encore.dev" and "encore.dev/<sub>" map to this package's encore.dev/<sub>/mod.ts;
 * "~encore/<sub>" maps to encore.gen/<sub>.ts, or else encore.gen/<sub>/index.ts, as
 * TypeScript resolves the app's paths entry for it. Anything else: null.
 */
export function aliasTarget(specifier) {
  if (specifier === "encore.dev") return path.join(runtimeDir(), "encore.dev/mod.ts");
  if (specifier.startsWith("encore.dev/")) {
    return path.join(runtimeDir(), "encore.dev", specifier.slice("encore.dev/".length), "mod.ts");
  }
  if (specifier.startsWith("~encore/")) {
    const generated = path.join(appRoot, "encore.gen", specifier.slice("~encore/".length));
    return existsSync(`${generated}.ts`) ? `${generated}.ts` : path.join(generated, "index.ts");
  }
  return null;
}
