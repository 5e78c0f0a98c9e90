// Node module-resolution hook: see aliases.mjs.
import { pathToFileURL } from "node:url";
import { aliasTarget } from "./aliases.mjs";

export async function resolve(specifier, context, nextResolve) {
  const target = aliasTarget(specifier);
  return nextResolve(target ? pathToFileURL(target).href : specifier, context);
}
