import path from "node:path";
import ts from "typescript";
import { docCommentBefore } from "../program/doc-comments.ts";
import { errorAt, toAppPath } from "../program/errors.ts";
import { compareText, type AppProgram } from "../program/program.ts";
import { checkNotNested, implicitServiceRoots } from "./implicit-services.ts";
import { isSdkExport, sdkExportOf } from "../sdk/sdk-symbols.ts";

export interface ServiceInfo {
  readonly name: string;
  /** App-relative folder of the service ("." for the app root itself): the one holding encore.service.ts, or found as Encore finds one without it. */
  readonly dir: string;
  readonly absDir: string;
  /** Its encore.service.ts, app-relative; null for a folder that is a service by what it declares. */
  readonly serviceFile: string | null;
  /** The comment above `export default new Service(...)`; null without one. */
  readonly doc: string | null;
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
  checkServiceDeclarations(app);
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
    services.push({ name, dir: toAppPath(app.appRoot, root.absDir) || ".", absDir: root.absDir, serviceFile: null, doc: null });
  }
  return services.sort((a, b) => compareText(a.name, b.name));
}

/**
 * Encore's rule: a service is declared once, as the default export of its encore.service.ts.
 * A `new Service(...)` anywhere else would be no service at all, here as under Encore.
 */
function checkServiceDeclarations(app: AppProgram): void {
  for (const file of app.files) {
    if (!file.text.includes("Service")) continue;
    const inServiceFile = path.basename(file.fileName) === SERVICE_FILE;
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node) && isSdkExport(sdkExportOf(app.checker, node.expression), "service", "Service")) {
        if (!inServiceFile) throw errorAt(app.appRoot, node, `a service is declared only in an ${SERVICE_FILE}, as \`export default new Service("name")\``);
        const exported = ts.isExportAssignment(node.parent) && !node.parent.isExportEquals && ts.isSourceFile(node.parent.parent);
        if (!exported) throw errorAt(app.appRoot, node, `an ${SERVICE_FILE} declares its service once, as \`export default new Service("name")\``);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
}

function declaredServices(app: AppProgram): ServiceInfo[] {
  const services: ServiceInfo[] = [];
  const byName = new Map<string, ts.Node>();
  for (const file of app.files) {
    if (path.basename(file.fileName) !== SERVICE_FILE) continue;
    const nameNode = serviceNameNode(app, file);
    const name = nameNode.text;
    const statement = file.statements.find((s) => ts.isExportAssignment(s) && !s.isExportEquals);
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
    const doc = statement ? docCommentBefore(statement) : null;
    services.push({ name, dir: toAppPath(app.appRoot, absDir) || ".", absDir, serviceFile: toAppPath(app.appRoot, file.fileName), doc });
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
    const config = expr.arguments?.[1];
    if (config) checkServiceConfig(app, config, first.text);
    return first;
  }
  throw errorAt(app.appRoot, file, `${SERVICE_FILE} must \`export default new Service("name")\``);
}

const CONFIG_SETTINGS = ["middlewares"];

/**
 * The config of `new Service(name, cfg)`, by Encore's rule: an object literal of
 * `key: value` settings it knows, each set once. The runtime reads `middlewares` from
 * the object at boot, so a setting it does not know would be silently ignored.
 */
function checkServiceConfig(app: AppProgram, config: ts.Expression, service: string): void {
  if (!ts.isObjectLiteralExpression(config)) {
    throw errorAt(app.appRoot, config, `the config of service "${service}" must be an object literal, as in \`new Service("${service}", { middlewares: [...] })\``);
  }
  const seen = new Set<string>();
  for (const property of config.properties) {
    const key = property.name && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) ? property.name.text : undefined;
    if (!ts.isPropertyAssignment(property) || key === undefined) {
      throw errorAt(app.appRoot, property, `each setting in the config of service "${service}" must be written \`name: value\` (no spread, shorthand, method or computed name)`);
    }
    if (!CONFIG_SETTINGS.includes(key)) {
      throw errorAt(app.appRoot, property, `unknown setting "${key}" of service "${service}" (known: ${CONFIG_SETTINGS.join(", ")})`);
    }
    if (seen.has(key)) throw errorAt(app.appRoot, property, `setting "${key}" of service "${service}" is set twice`);
    seen.add(key);
  }
}
