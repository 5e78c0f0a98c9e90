// Where npm start's bundle of the current sources lives: a folder named for the hash
// of everything it is built from (the sources, and where the runtime's packages it points
// at are installed), so a bundle is current exactly when its folder exists, and builds
// running at once (test files) land the same folder or none.
import path from "node:path";
import { sourcesDigest } from "../internal/codegen/sources-digest.mjs";
import { runtimeDir } from "../internal/config/app-root.mjs";
import { runtimePackagesLayout } from "./runtime-packages.mjs";

/** encore.gen/build: one folder per built set of sources. */
export function buildsDir(appRoot) {
  return path.join(appRoot, "encore.gen", "build");
}

/** The bundle folder for the sources as they are now; its entry point is server.mjs. */
export function bundleDir(appRoot) {
  return path.join(buildsDir(appRoot), sourcesDigest(appRoot, [runtimeDir()], runtimePackagesLayout()).slice(0, 16));
}
