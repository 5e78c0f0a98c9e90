// Which encore.dev modules an app may import: the subpaths the encore.dev package on npm
// publishes (its package.json "exports"), and of those the ones this runtime implements.
// Plain JavaScript because the Node loader hook uses it too (aliases.mjs), besides the
// parser, which refuses any other encore.dev import at generation.

/** Published by encore.dev and implemented here, each at runtime/encore.dev/<subpath>/mod.ts. */
export const implementedModules = Object.freeze([
  "encore.dev",
  "encore.dev/api",
  "encore.dev/auth",
  "encore.dev/config",
  "encore.dev/cron",
  "encore.dev/log",
  "encore.dev/metrics",
  "encore.dev/pubsub",
  "encore.dev/service",
  "encore.dev/storage/cache",
  "encore.dev/storage/objects",
  "encore.dev/storage/sqldb",
  "encore.dev/types",
  "encore.dev/validate",
  // What Encore's generated ~encore/* modules import; this runtime's generator imports them too.
  "encore.dev/internal/codegen/api",
  "encore.dev/internal/codegen/auth",
  // What Encore's generated entry point imports: registerHandlers, then run.
  "encore.dev/internal/codegen/appinit",
]);

/**
 * The encore.dev release that first published each module added since 1.34 (the tag of the
 * first release whose package.json exports it), for the message given to an app whose
 * installed encore.dev predates the module it imports.
 */
export const firstPublishedIn = Object.freeze({
  "encore.dev/service": "1.39.0",
  "encore.dev/storage/objects": "1.44.0",
  "encore.dev/validate": "1.44.9",
  "encore.dev/types": "1.50.2",
  "encore.dev/metrics": "1.53.0",
  "encore.dev/storage/cache": "1.55.0",
});

/** Every module encore.dev publishes, in alphabetical order. */
export const publishedModules = Object.freeze([...implementedModules].sort(byPath));

function byPath(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** True for "encore.dev" and "encore.dev/<anything>": specifiers of the encore.dev package. */
export function isEncoreDevSpecifier(specifier) {
  return specifier === "encore.dev" || specifier.startsWith("encore.dev/");
}

/**
 * Why importing `specifier` (an encore.dev specifier) is refused, worded to follow
 * "<file> imports"; undefined when this runtime implements it.
 */
export function encoreDevRefusal(specifier) {
  if (implementedModules.includes(specifier)) return undefined;
  return `"${specifier}", which encore.dev does not publish; published: ${publishedModules.join(", ")}`;
}
