import ts from "typescript";
import { firstPublishedIn } from "./encore-dev-modules.mjs";
import { errorAt } from "../program/errors.ts";
import type { AppProgram } from "../program/program.ts";

/** Where an encore.dev export is declared: "api/mod", "storage/sqldb/database", ... */
export interface SdkExport {
  readonly module: string;
  readonly name: string;
}

// Matches the npm package as well as a source checkout or a local shim of it.
const SDK_FILE = /(?:^|[\\/])encore\.dev[\\/](.+?)\.(?:d\.)?[cm]?tsx?$/;

/**
 * The encore.dev export that `node` (an identifier, `ns.name` access or qualified type name)
 * refers to, following import aliases and re-exports; undefined for anything else.
 */
export function sdkExportOf(checker: ts.TypeChecker, node: ts.Node): SdkExport | undefined {
  if (ts.isPropertyAccessExpression(node) && !reachesAnExport(checker, node)) return undefined;
  const nameNode = ts.isPropertyAccessExpression(node)
    ? node.name
    : ts.isQualifiedName(node)
      ? node.right
      : node;
  const symbol = checker.getSymbolAtLocation(nameNode);
  return symbol ? sdkExportOfSymbol(checker, symbol) : undefined;
}

/**
 * An export is reached through names of classes, functions or namespaces (`ns.x`,
 * `Class.member`), imported or not; a member of a variable's value (`rows.map`,
 * `db.insert`) never is. Resolving such
 * a member means inferring the variable's type, for a query builder's result a deep
 * type check: that was a third of the parse time of an app using drizzle.
 */
function reachesAnExport(checker: ts.TypeChecker, access: ts.PropertyAccessExpression): boolean {
  let head: ts.Expression = access.expression;
  while (ts.isPropertyAccessExpression(head)) head = head.expression;
  if (!ts.isIdentifier(head)) return false;
  let symbol = checker.getSymbolAtLocation(head);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const named = ts.SymbolFlags.Class | ts.SymbolFlags.Module | ts.SymbolFlags.Enum | ts.SymbolFlags.Function;
  return symbol !== undefined && (symbol.flags & named) !== 0;
}

export function sdkExportOfSymbol(checker: ts.TypeChecker, symbol: ts.Symbol): SdkExport | undefined {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const declaration = target.declarations?.[0];
  if (!declaration) return undefined;
  const match = SDK_FILE.exec(declaration.getSourceFile().fileName);
  if (!match?.[1]) return undefined;
  return { module: match[1].split("\\").join("/"), name: target.name };
}

/** True when `found` is `name` exported from a module under encore.dev/<area>. */
export function isSdkExport(found: SdkExport | undefined, area: string, name: string): boolean {
  return found !== undefined && found.name === name && (found.module === area || found.module.startsWith(`${area}/`));
}

/**
 * Every encore.dev import must resolve: otherwise no SDK call could be recognised and the
 * app would look empty instead of failing clearly.
 */
export function checkSdkResolves(app: AppProgram): void {
  for (const file of app.files) {
    for (const statement of file.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const specifier = statement.moduleSpecifier.text;
      if (specifier !== "encore.dev" && !specifier.startsWith("encore.dev/")) continue;
      if (!app.checker.getSymbolAtLocation(statement.moduleSpecifier)) {
        throw errorAt(app.appRoot, statement.moduleSpecifier, `cannot resolve "${specifier}": ${whyUnresolved(app, file, specifier)}`);
      }
    }
  }
}

/** An encore.dev older than the module it is asked for, or no encore.dev at all. */
function whyUnresolved(app: AppProgram, file: ts.SourceFile, specifier: string): string {
  const options = app.program.getCompilerOptions();
  const installed = ts.resolveModuleName("encore.dev", file.fileName, options, ts.sys).resolvedModule?.packageId?.version;
  if (!installed) return "is the encore.dev package installed?";
  const since = firstPublishedIn[specifier];
  if (!since) return `the installed encore.dev ${installed} does not resolve it: reinstall encore.dev`;
  return `the installed encore.dev ${installed} predates it (it came with encore.dev ${since}): npm install encore.dev@latest`;
}
