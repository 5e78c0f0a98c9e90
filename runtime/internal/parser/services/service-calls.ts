import ts from "typescript";
import type { EndpointMeta } from "../../meta/types.ts";
import { errorAt } from "../program/errors.ts";
import { compareText, type AppProgram } from "../program/program.ts";
import { serviceOfFile, type ServiceInfo } from "./services.ts";

const CLIENTS = "~encore/clients";

/**
 * For each service, the services it calls through `~encore/clients`, sorted, itself left out.
 * As in Encore, a call is a method called on a service's client (`svc.endpoint(...)`, or
 * `clients.svc.endpoint(...)` through a namespace import); importing a client alone is none.
 * A call of anything the generated client does not hold is refused: it would fail only when
 * it runs.
 */
export function findServiceCalls(app: AppProgram, services: readonly ServiceInfo[], endpoints: readonly EndpointMeta[]): Map<string, string[]> {
  const calls = new Map(services.map((service) => [service.name, new Set<string>()]));
  const known = new Set(services.map((service) => service.name));
  const callable = new Set(endpoints.filter((e) => e.kind === "typed" || e.kind === "stream").map((e) => `${e.service}.${e.name}`));
  for (const file of app.files) {
    const caller = serviceOfFile(services, file.fileName);
    const clients = caller && clientImports(app, file);
    if (!caller || !clients || (clients.named.size === 0 && clients.namespaces.size === 0)) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const callee = calledService(app, node.expression.expression, clients);
        const method = node.expression.name.text;
        if (callee !== undefined && known.has(callee) && !callable.has(`${callee}.${method}`)) {
          throw errorAt(
            app.appRoot,
            node,
            `${callee}.${method}(...) is not in ~encore/clients as encore-selfhost writes it: a service's client holds its typed and streaming endpoints (Encore's holds raw endpoints and ref() too, which are not supported here)`,
          );
        }
        if (callee !== undefined && callee !== caller.name && known.has(callee)) calls.get(caller.name)!.add(callee);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return new Map([...calls].map(([service, called]) => [service, [...called].sort(compareText)]));
}

interface ClientImports {
  /** The local binding of each imported client, with the service it calls. */
  readonly named: ReadonlyMap<ts.Symbol, string>;
  /** `import * as clients from "~encore/clients"`. */
  readonly namespaces: ReadonlySet<ts.Symbol>;
}

function clientImports(app: AppProgram, file: ts.SourceFile): ClientImports {
  const named = new Map<ts.Symbol, string>();
  const namespaces = new Set<ts.Symbol>();
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier) || statement.moduleSpecifier.text !== CLIENTS) continue;
    const bindings = statement.importClause?.isTypeOnly ? undefined : statement.importClause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) {
      const symbol = app.checker.getSymbolAtLocation(bindings.name);
      if (symbol) namespaces.add(symbol);
    } else if (bindings) {
      for (const element of bindings.elements) {
        const symbol = element.isTypeOnly ? undefined : app.checker.getSymbolAtLocation(element.name);
        if (symbol) named.set(symbol, (element.propertyName ?? element.name).text);
      }
    }
  }
  return { named, namespaces };
}

/** The service whose client `target` is: a client imported by name, or `clients.svc` on a namespace import. */
function calledService(app: AppProgram, target: ts.Expression, clients: ClientImports): string | undefined {
  if (ts.isIdentifier(target)) {
    const symbol = app.checker.getSymbolAtLocation(target);
    return symbol && clients.named.get(symbol);
  }
  if (ts.isPropertyAccessExpression(target) && ts.isIdentifier(target.expression)) {
    const symbol = app.checker.getSymbolAtLocation(target.expression);
    return symbol && clients.namespaces.has(symbol) ? target.name.text : undefined;
  }
  return undefined;
}
