// One hash over the sources an output is made from: the app's TypeScript files and
// the runtime code that turns them into that output. Plain JavaScript because npm
// start checks it before any TypeScript support is loaded, to skip the build (and
// TypeScript, esbuild and tsx with it) when nothing changed.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** Folders that never hold app source. */
const notAppSource = new Set(["node_modules", "encore.gen", ".data", "testdata"]);

/**
 * The app's .ts files (tests aside), tsconfig.json (it steers parsing), encore.app (the
 * app's ID), and every .ts/.mts/.mjs file under `toolDirs`, each hashed with its
 * app-relative path.
 */
export function sourcesDigest(appRoot, toolDirs) {
  const files = [
    ...sourceFiles(appRoot, appRoot, (name) => name.endsWith(".ts"), true),
    ...toolDirs.flatMap((dir) => sourceFiles(dir, appRoot, (name) => /\.(ts|mts|mjs)$/.test(name), false)),
  ];
  for (const file of ["tsconfig.json", "encore.app"]) if (existsSync(path.join(appRoot, file))) files.push(file);
  const hash = createHash("sha256");
  for (const rel of files.sort()) {
    hash.update(rel).update("\0").update(readFileSync(path.join(appRoot, rel))).update("\0");
  }
  return hash.digest("hex");
}

/**
 * `appSource`: the app's own files, so folders with their own package.json (other
 * packages: this runtime, a front end) are left out, as the parser leaves them out.
 */
function sourceFiles(dir, appRoot, wanted, appSource) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const name = entry.name;
    if (name.startsWith(".") || notAppSource.has(name)) continue;
    const abs = path.join(dir, name);
    if (entry.isDirectory() && appSource && existsSync(path.join(abs, "package.json"))) continue;
    if (entry.isDirectory()) found.push(...sourceFiles(abs, appRoot, wanted, appSource));
    else if (wanted(name) && !/\.test\.[cm]?ts$/.test(name)) found.push(path.relative(appRoot, abs));
  }
  return found;
}
