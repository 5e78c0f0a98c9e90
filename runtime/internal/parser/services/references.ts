import ts from "typescript";
import { compareText, type AppProgram } from "../program/program.ts";
import { serviceOfFile, type ServiceInfo } from "./services.ts";

/**
 * For each declaration `const x = new Resource(...)` among `declarations`: the expressions
 * elsewhere in the app that name it (`x`, an import of it, or `ns.x` through a namespace
 * import), which is what Encore counts as uses. A declaration bound to no variable has none.
 */
export function usesOf(app: AppProgram, declarations: readonly ts.NewExpression[]): Map<ts.NewExpression, ts.Expression[]> {
  const bySymbol = new Map<ts.Symbol, ts.NewExpression>();
  const uses = new Map<ts.NewExpression, ts.Expression[]>();
  for (const declaration of declarations) {
    uses.set(declaration, []);
    const symbol = boundSymbol(app, declaration);
    if (symbol) bySymbol.set(symbol, declaration);
  }
  for (const use of findReferences(app, new Set(bySymbol.keys()))) uses.get(bySymbol.get(use.symbol)!)!.push(use.expression);
  return uses;
}

/** The variable `const name = new Resource(...)` binds; undefined when the value is bound to none. */
function boundSymbol(app: AppProgram, node: ts.NewExpression): ts.Symbol | undefined {
  const parent = node.parent;
  if (!ts.isVariableDeclaration(parent) || parent.initializer !== node || !ts.isIdentifier(parent.name)) return undefined;
  return app.checker.getSymbolAtLocation(parent.name);
}

/** The `new Resource(...)` that `expression` names (see namedSymbol); undefined when it names none. */
export function namedResource(app: AppProgram, expression: ts.Expression): ts.NewExpression | undefined {
  const declaration = namedSymbol(app, expression)?.valueDeclaration;
  const value = declaration && ts.isVariableDeclaration(declaration) ? declaration.initializer : undefined;
  return value && ts.isNewExpression(value) ? value : undefined;
}

/**
 * What `expression` names when it is an identifier or `ns.name` on a namespace import, import
 * aliases followed to the declaration; undefined for anything else. Members of values are
 * never resolved: that would mean inferring the value's type, a deep type check.
 */
function namedSymbol(app: AppProgram, expression: ts.Expression): ts.Symbol | undefined {
  if (ts.isIdentifier(expression)) return declared(app, symbolAt(app, expression));
  if (ts.isPropertyAccessExpression(expression) && ts.isIdentifier(expression.expression) && isNamespace(app, expression.expression)) {
    return declared(app, app.checker.getSymbolAtLocation(expression.name));
  }
  return undefined;
}

interface Reference {
  readonly symbol: ts.Symbol;
  readonly expression: ts.Expression;
}

/**
 * Every place the app's files name one of `symbols`. Import and export clauses, type
 * positions and the declarations themselves are not uses.
 */
function findReferences(app: AppProgram, symbols: ReadonlySet<ts.Symbol>): Reference[] {
  if (symbols.size === 0) return [];
  const names = new Set([...symbols].map((symbol) => symbol.name));
  const found: Reference[] = [];
  for (const file of app.files) {
    // Only identifiers that can name one of them are resolved: the declared names, and what the file imports under other names.
    const candidates = new Set([...names, ...importedNames(file)]);
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isTypeNode(node)) return;
      if (ts.isIdentifier(node) && candidates.has(node.text)) {
        const expression = namingExpression(node);
        const symbol = expression && !isDeclarationName(node) ? namedSymbol(app, expression) : undefined;
        if (symbol && symbols.has(symbol)) found.push({ symbol, expression: expression! });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

/** The services, sorted and once each, that the files holding `nodes` belong to. */
export function servicesOf(services: readonly ServiceInfo[], nodes: Iterable<ts.Node>): string[] {
  const names = new Set<string>();
  for (const node of nodes) {
    const service = serviceOfFile(services, node.getSourceFile().fileName);
    if (service) names.add(service.name);
  }
  return [...names].sort(compareText);
}

/** `name` itself, or `ns.name` when it is the member of a namespace access; undefined for other members. */
function namingExpression(node: ts.Identifier): ts.Expression | undefined {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return parent;
  if (ts.isPropertyAssignment(parent) && parent.name === node) return undefined;
  return node;
}

function symbolAt(app: AppProgram, node: ts.Identifier): ts.Symbol | undefined {
  // `{ db }` names both a property and the variable; the variable is the one wanted.
  if (ts.isShorthandPropertyAssignment(node.parent)) return app.checker.getShorthandAssignmentValueSymbol(node.parent);
  return app.checker.getSymbolAtLocation(node);
}

function declared(app: AppProgram, symbol: ts.Symbol | undefined): ts.Symbol | undefined {
  return symbol && symbol.flags & ts.SymbolFlags.Alias ? app.checker.getAliasedSymbol(symbol) : symbol;
}

function isNamespace(app: AppProgram, node: ts.Identifier): boolean {
  const symbol = declared(app, app.checker.getSymbolAtLocation(node));
  return symbol !== undefined && (symbol.flags & ts.SymbolFlags.ValueModule) !== 0;
}

function isDeclarationName(node: ts.Identifier): boolean {
  const parent = node.parent;
  return (ts.isVariableDeclaration(parent) || ts.isBindingElement(parent) || ts.isParameter(parent)) && parent.name === node;
}

function importedNames(file: ts.SourceFile): string[] {
  const names: string[] = [];
  for (const statement of file.statements) {
    const clause = ts.isImportDeclaration(statement) ? statement.importClause : undefined;
    if (!clause) continue;
    if (clause.name) names.push(clause.name.text);
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) names.push(bindings.name.text);
    else if (bindings) names.push(...bindings.elements.map((element) => element.name.text));
  }
  return names;
}
