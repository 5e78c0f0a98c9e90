// Resolves a specifier as Node does for a file of this package (runtime-packages.mjs loads
// this module by its path, so that it runs here even when its caller runs bundled).

/** The URL Node loads for `specifier` imported from the runtime's own code. */
export function resolveHere(specifier) {
  return import.meta.resolve(specifier);
}
