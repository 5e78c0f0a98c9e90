import { readFileSync } from "node:fs";
import path from "node:path";
import { appRoot } from "../config/app-root.ts";
import type { AppMeta } from "./types.ts";

/** Where the generator writes the metadata, relative to the app root. */
export const metaFile = "encore.gen/internal/meta.json";

let cached: AppMeta | undefined;

/** The generated app metadata, read once. */
export function appMeta(): AppMeta {
  if (!cached) {
    const file = path.join(appRoot, metaFile);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (err) {
      throw new Error(`${metaFile} is missing: run "encore-selfhost gen" (start, run and test do it for you)`, {
        cause: err,
      });
    }
    cached = JSON.parse(text) as AppMeta;
  }
  return cached;
}
