// Node module-resolution hook: see aliases.mjs.
import { fileURLToPath, pathToFileURL } from "node:url";
import { aliasTarget } from "./aliases.mjs";

export async function resolve(specifier, context, nextResolve) {
  const importer = context.parentURL?.startsWith("file:") ? fileURLToPath(context.parentURL) : undefined;
  const target = aliasTarget(specifier, importer);
  return nextResolve(target ? pathToFileURL(target).href : specifier, context);
}
