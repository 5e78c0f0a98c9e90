// One hash over the sources an output is made from: the app's TypeScript files and
// the runtime code that turns them into that output. Plain JavaScript because npm
// start checks it before any TypeScript support is loaded, to skip the build (and
// TypeScript, esbuild and tsx with it) when nothing changed.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { runtimeDir } from "../config/runtime-dir.mjs";
import { appFiles } from "../parser/program/app-files.mjs";

/** Folders of the runtime's own that are not what it runs. */
const notToolSource = new Set(["node_modules", "encore.gen", "testdata"]);

/**
 * The app's source files as the parser walks them (app-files.mjs: the .ts files it reads
 * and the other source files it checks, which the app may import too), tsconfig.json (it
 * steers parsing), encore.app (the app's ID), and every .ts/.mts/.mjs file under
 * `toolDirs`, each hashed with its app-relative path, and `extra`, anything else the output
 * depends on.
 */
export function sourcesDigest(appRoot, toolDirs, extra = "") {
  const { parsed, unread } = appFiles(appRoot, { skip: [runtimeDir()] });
  const files = [
    ...[...parsed, ...unread.map((u) => u.file)].map((file) => path.relative(appRoot, file)),
    ...toolDirs.flatMap((dir) => toolFiles(dir, appRoot)),
  ];
  for (const file of ["tsconfig.json", "encore.app"]) if (existsSync(path.join(appRoot, file))) files.push(file);
  const hash = createHash("sha256").update(extra).update("\0");
  for (const rel of files.sort()) {
    hash.update(rel).update("\0").update(readFileSync(path.join(appRoot, rel))).update("\0");
  }
  return hash.digest("hex");
}

/** The runtime's own code under `dir`, tests and test data aside. */
function toolFiles(dir, appRoot) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const name = entry.name;
    if (name.startsWith(".") || notToolSource.has(name)) continue;
    const abs = path.join(dir, name);
    if (entry.isDirectory()) found.push(...toolFiles(abs, appRoot));
    else if (/\.(ts|mts|mjs)$/.test(name) && !/\.test\.[cm]?ts$/.test(name)) found.push(path.relative(appRoot, abs));
  }
  return found;
}
