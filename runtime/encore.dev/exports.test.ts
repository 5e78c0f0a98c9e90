import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { implementedModules } from "../internal/parser/sdk/encore-dev-modules.mjs";

// The encore.dev package on npm (its package.json is not among its exports: found from the resolved paths of node_modules).
const encoreDev = createRequire(import.meta.url)
  .resolve.paths("encore.dev")!
  .map((modules) => path.join(modules, "encore.dev"))
  .find((dir) => fs.existsSync(path.join(dir, "package.json")))!;
const { exports } = JSON.parse(fs.readFileSync(path.join(encoreDev, "package.json"), "utf8")) as { exports: Record<string, { types?: string }> };

// Every module encore.dev publishes, the internal ones its generated code imports included.
const modules = implementedModules;
const subpath = (specifier: string) => specifier.slice("encore.dev".length).replace(/^\//, "");
/** The declarations encore.dev publishes for `specifier`, through a wildcard export ("./internal/codegen/*") where it has one. */
function theirs(specifier: string): string {
  const key = `.${subpath(specifier) ? `/${subpath(specifier)}` : ""}`;
  const wildcard = Object.keys(exports).find((k) => k.endsWith("/*") && key.startsWith(k.slice(0, -1)));
  const types = exports[key]?.types ?? exports[wildcard!]!.types!.replace("*", key.slice(wildcard!.length - 1));
  return path.join(encoreDev, types);
}
const ours = (specifier: string) => path.join(import.meta.dirname, subpath(specifier), "mod.ts");

const program = ts.createProgram(
  modules.flatMap((specifier) => [theirs(specifier), ours(specifier)]),
  { noEmit: true, strict: true, skipLibCheck: true, allowImportingTsExtensions: true, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ES2022, types: ["node"] },
);
const checker = program.getTypeChecker();

/** Every name a module exports, types included. */
function allExports(file: string): string[] {
  return checker
    .getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)!)!)
    .map((symbol) => symbol.name)
    .sort();
}

/** The names a module exports as values (functions, classes, constants: what an app can use at run time). */
function valueExports(file: string): string[] {
  const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
  return checker
    .getExportsOfModule(module)
    .filter((symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol).flags & ts.SymbolFlags.Value)
    .map((symbol) => symbol.name)
    .sort();
}

describe("runtime/encore.dev", () => {
  it.each(modules)("%s exports as a value every name encore.dev's exports as one", (specifier) => {
    const ourValues = new Set(valueExports(ours(specifier)));
    expect(valueExports(theirs(specifier)).filter((name) => !ourValues.has(name))).toEqual([]);
  });

  it.each(modules)("%s exports every name encore.dev's exports, types included", (specifier) => {
    const ourNames = new Set(allExports(ours(specifier)));
    expect(allExports(theirs(specifier)).filter((name) => !ourNames.has(name))).toEqual([]);
  });
});
