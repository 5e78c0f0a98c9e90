import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { ParseError, toAppPath } from "./errors.ts";
import type { AppProgram } from "./program.ts";

/**
 * What declares an Encore resource, by encore.dev module: functions called (`api(...)`,
 * `api.raw(...)`) and classes constructed (`new Topic(...)`).
 */
const declaring: Readonly<Record<string, { readonly calls: readonly string[]; readonly classes: readonly string[] }>> = {
  "encore.dev/api": { calls: ["api"], classes: ["Gateway"] },
  "encore.dev/auth": { calls: ["authHandler"], classes: [] },
  "encore.dev/config": { calls: ["secret"], classes: [] },
  "encore.dev/cron": { calls: [], classes: ["CronJob"] },
  "encore.dev/metrics": { calls: [], classes: ["Counter", "CounterGroup", "Gauge", "GaugeGroup"] },
  "encore.dev/pubsub": { calls: [], classes: ["Topic", "Subscription"] },
  "encore.dev/service": { calls: [], classes: ["Service"] },
  "encore.dev/storage/objects": { calls: [], classes: ["Bucket"] },
  "encore.dev/storage/sqldb": { calls: [], classes: ["SQLDatabase"] },
};

/**
 * Refuses an Encore declaration in a file Encore walks past without reading: a .tsx, .js
 * or other file that is not .ts, or one reached only through a symbolic link. Encore would
 * serve the app without it (an endpoint answering 404, a subscription never called), and
 * so would this runtime, which reads the files Encore reads. Only files importing a
 * declaring encore.dev module are parsed, and only for their syntax.
 */
export function checkUnreadFiles(app: AppProgram): void {
  for (const { file, link } of app.unread) {
    const text = fs.readFileSync(file, "utf8");
    if (!text.includes("encore.dev")) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
    const found = firstDeclaration(source);
    if (!found) continue;
    const where = toAppPath(app.appRoot, file);
    const line = source.getLineAndCharacterOfPosition(found.node.getStart(source)).line + 1;
    const why = link
      ? `it lies behind the symbolic link ${toAppPath(app.appRoot, link)}, which Encore's parser does not follow: move the file into the app`
      : `Encore's parser reads only .ts files: rename it to ${path.basename(file).replace(/\.[^.]+$/, ".ts")} or move the declaration into a .ts file`;
    throw new ParseError(`${where}:${line}: ${found.what} is not read, so it would not exist: ${why}`, where, line);
  }
}

function scriptKind(file: string): ts.ScriptKind {
  if (/\.[cm]?jsx?$/.test(file)) return file.endsWith("x") ? ts.ScriptKind.JSX : ts.ScriptKind.JS;
  return file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
}

interface Found {
  readonly node: ts.Node;
  /** As written, e.g. "api.raw(...)", "new Topic(...)". */
  readonly what: string;
}

/** The first call or construction of a declaring encore.dev export, by the names the file imports it under. */
function firstDeclaration(source: ts.SourceFile): Found | undefined {
  const { calls, classes } = importedNames(source);
  if (calls.size === 0 && classes.size === 0) return undefined;
  let found: Found | undefined;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isNewExpression(node) && classes.has(nameOf(node.expression) ?? "")) {
      found = { node, what: `new ${node.expression.getText(source)}(...)` };
    } else if (ts.isCallExpression(node) && calledName(node.expression, calls)) {
      found = { node, what: `${node.expression.getText(source)}(...)` };
    } else {
      ts.forEachChild(node, visit);
    }
  };
  visit(source);
  return found;
}

/** `name` or `ns.name`, as one key ("name", "ns.name"); undefined for anything else. */
function nameOf(expr: ts.Expression): string | undefined {
  if (ts.isIdentifier(expr)) return expr.text;
  if (ts.isPropertyAccessExpression(expr) && ts.isIdentifier(expr.expression)) return `${expr.expression.text}.${expr.name.text}`;
  return undefined;
}

/** A declaring function called directly, or through one of its members (`api.raw`). */
function calledName(callee: ts.Expression, calls: ReadonlySet<string>): boolean {
  const name = nameOf(callee);
  if (name !== undefined && calls.has(name)) return true;
  return ts.isPropertyAccessExpression(callee) && calls.has(nameOf(callee.expression) ?? "");
}

/** The local names of declaring exports: `x` for `import { api as x }`, `ns.Topic` for `import * as ns`. */
function importedNames(source: ts.SourceFile): { calls: Set<string>; classes: Set<string> } {
  const calls = new Set<string>();
  const classes = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const exports = declaring[statement.moduleSpecifier.text];
    const bindings = statement.importClause?.namedBindings;
    if (!exports || !bindings || statement.importClause.isTypeOnly) continue;
    if (ts.isNamespaceImport(bindings)) {
      for (const name of exports.calls) calls.add(`${bindings.name.text}.${name}`);
      for (const name of exports.classes) classes.add(`${bindings.name.text}.${name}`);
      continue;
    }
    for (const element of bindings.elements) {
      const imported = (element.propertyName ?? element.name).text;
      if (exports.calls.includes(imported)) calls.add(element.name.text);
      if (exports.classes.includes(imported)) classes.add(element.name.text);
    }
  }
  return { calls, classes };
}
