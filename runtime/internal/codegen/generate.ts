import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runtimeDir } from "../config/app-root.ts";
import { parseApp } from "../parser/mod.ts";
import { toOpenAPI } from "../parser/openapi.ts";
import { appName } from "../meta/app-name.ts";
import type { AppMeta } from "../meta/types.ts";
import { renderAuth, renderClients, renderHandlers } from "./render.ts";
import { sourcesDigest } from "./sources-digest.mjs";

export const genDir = "encore.gen";
const hashFile = "internal/inputs.sha256";

export interface GenerateResult {
  readonly meta: AppMeta;
  /** False when the sources were unchanged and nothing was written. */
  readonly regenerated: boolean;
}

/**
 * Writes encore.gen/ from the app source, unless a hash of the inputs (app .ts
 * files and this generator's own code) says it is already current.
 */
export function generate(appRoot: string, opts: { force?: boolean } = {}): GenerateResult {
  const out = path.join(appRoot, genDir);
  const digest = inputsDigest(appRoot);
  const previous = readIfExists(path.join(out, hashFile));
  if (!opts.force && previous === digest) {
    return { meta: JSON.parse(readFileSync(path.join(out, "internal/meta.json"), "utf8")) as AppMeta, regenerated: false };
  }
  const meta = parseApp(appRoot);
  rmSync(out, { recursive: true, force: true });
  const files = [
    { path: "internal/meta.json", content: JSON.stringify(meta, null, 2) + "\n" },
    { path: "openapi.json", content: JSON.stringify(toOpenAPI(meta, appName(meta, appRoot)), null, 2) + "\n" },
    renderHandlers(meta),
    ...renderClients(meta),
    renderAuth(meta),
    { path: hashFile, content: digest }, // last: a crash midway leaves no valid hash behind
  ];
  for (const f of files) {
    mkdirSync(path.dirname(path.join(out, f.path)), { recursive: true });
    writeFileSync(path.join(out, f.path), f.content);
  }
  return { meta, regenerated: true };
}

function inputsDigest(appRoot: string): string {
  return sourcesDigest(appRoot, ["parser", "codegen", "meta"].map((d) => path.join(runtimeDir(), "internal", d)));
}

function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
