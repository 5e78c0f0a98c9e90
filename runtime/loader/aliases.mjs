// The one rule that points the app's Encore imports at this runtime, shared by the
// Node loader hook (npm start) and vitest. Plain JavaScript because Node loads
// loader hooks in their own thread, before any TypeScript support is in place.
import path from "node:path";
import { appRoot } from "../internal/config/app-root.mjs";

export { appRoot };

/**
 * "encore.dev" and "encore.dev/<sub>" map to runtime/encore.dev/<sub>/mod.ts;
 * "~encore/<sub>" maps to encore.gen/<sub>/index.ts. Anything else: null.
 */
export function aliasTarget(specifier) {
  if (specifier === "encore.dev") return path.join(appRoot, "runtime/encore.dev/mod.ts");
  if (specifier.startsWith("encore.dev/")) {
    return path.join(appRoot, "runtime/encore.dev", specifier.slice("encore.dev/".length), "mod.ts");
  }
  if (specifier.startsWith("~encore/")) {
    return path.join(appRoot, "encore.gen", specifier.slice("~encore/".length), "index.ts");
  }
  return null;
}
