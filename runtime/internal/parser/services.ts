import path from "node:path";
import ts from "typescript";
import { errorAt, toAppPath } from "./errors.ts";
import { compareText, type AppProgram } from "./program.ts";
import { checkNotNested, implicitServiceRoots } from "./implicit-services.ts";
import { isSdkExport, sdkExportOf } from "./sdk-symbols.ts";

export interface ServiceInfo {
  readonly name: string;
  /** App-relative folder of the service ("." for the app root itself): the one holding encore.service.ts, or found as Encore finds one without it. */
  readonly dir: string;
  readonly absDir: string;
}

const SERVICE_FILE = "encore.service.ts";
// The default endpoint path is "/<service>.<endpoint>", so names must not contain dots or slashes.
const SERVICE_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * The app's services: every folder with an encore.service.ts, and, as in Encore, every
 * other folder that declares endpoints (or a subscription, the Gateway, an auth handler)
 * outside those, named after the folder.
 */
export function findServices(app: AppProgram): ServiceInfo[] {
  const services = declaredServices(app);
  const implicit = implicitServiceRoots(app, services.map((service) => service.absDir));
  checkNotNested(app.appRoot, implicit, services);
  for (const root of implicit) {
    const name = path.basename(root.absDir);
    if (!SERVICE_NAME.test(name)) {
      throw errorAt(app.appRoot, root.node, `folder "${name}" is a service (it declares endpoints without an encore.service.ts), but "${name}" is not a valid service name: use letters, digits, "_" and "-", or add encore.service.ts with a valid name`);
    }
    const same = services.find((service) => service.name === name);
    if (same) {
      throw errorAt(app.appRoot, root.node, `service "${name}" is defined twice: by folder ${toAppPath(app.appRoot, root.absDir) || "."} (it has no encore.service.ts) and by ${same.dir}`);
    }
    services.push({ name, dir: toAppPath(app.appRoot, root.absDir) || ".", absDir: root.absDir });
  }
  return services.sort((a, b) => compareText(a.name, b.name));
}

function declaredServices(app: AppProgram): ServiceInfo[] {
  const services: ServiceInfo[] = [];
  const byName = new Map<string, ts.Node>();
  for (const file of app.files) {
    if (path.basename(file.fileName) !== SERVICE_FILE) continue;
    const nameNode = serviceNameNode(app, file);
    const name = nameNode.text;
    if (!SERVICE_NAME.test(name)) {
      throw errorAt(app.appRoot, nameNode, `invalid service name "${name}": use letters, digits, "_" and "-"`);
    }
    const earlier = byName.get(name);
    if (earlier) {
      const first = toAppPath(app.appRoot, earlier.getSourceFile().fileName);
      throw errorAt(app.appRoot, nameNode, `service "${name}" is already declared in ${first}`);
    }
    byName.set(name, nameNode);
    const absDir = path.dirname(file.fileName);
    services.push({ name, dir: toAppPath(app.appRoot, absDir) || ".", absDir });
  }
  return services;
}

/** The service a file belongs to: the one whose folder is its nearest ancestor. */
export function serviceOfFile(services: readonly ServiceInfo[], fileName: string): ServiceInfo | undefined {
  let best: ServiceInfo | undefined;
  for (const service of services) {
    const relative = path.relative(service.absDir, fileName);
    const inside = relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
    if (inside && (!best || service.absDir.length > best.absDir.length)) best = service;
  }
  return best;
}

function serviceNameNode(app: AppProgram, file: ts.SourceFile): ts.StringLiteralLike {
  for (const statement of file.statements) {
    if (!ts.isExportAssignment(statement) || statement.isExportEquals) continue;
    const expr = statement.expression;
    if (!ts.isNewExpression(expr) || !isSdkExport(sdkExportOf(app.checker, expr.expression), "service", "Service")) {
      throw errorAt(app.appRoot, statement, `the default export of ${SERVICE_FILE} must be \`new Service("name")\` from encore.dev/service`);
    }
    const first = expr.arguments?.[0];
    if (!first || !(ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) {
      throw errorAt(app.appRoot, expr, "the service name passed to `new Service(...)` must be a string literal");
    }
    return first;
  }
  throw errorAt(app.appRoot, file, `${SERVICE_FILE} must \`export default new Service("name")\``);
}
