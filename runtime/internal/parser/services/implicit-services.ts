import path from "node:path";
import ts from "typescript";
import { errorAt } from "../program/errors.ts";
import type { AppProgram } from "../program/program.ts";
import { isSdkExport, sdkExportOf } from "../sdk/sdk-symbols.ts";

/** A folder that is a service by what it declares rather than by an encore.service.ts. */
export interface ImplicitRoot {
  readonly absDir: string;
  /** The first declaration that makes it one, to point errors at. */
  readonly node: ts.Node;
}

/**
 * Encore's service discovery (tsparser/src/parser/service_discovery.rs): besides the folders
 * with encore.service.ts, the folder of every file declaring an endpoint, a subscription, the
 * Gateway or an auth handler is a service named after the folder, unless it lies inside a
 * service already. Nested such folders are one service, rooted at the outermost. Databases,
 * topics, buckets and cron jobs make no service: they join the one whose folder holds them.
 */
export function implicitServiceRoots(app: AppProgram, declaredDirs: readonly string[]): ImplicitRoot[] {
  const candidates = new Map<string, ts.Node>();
  for (const file of app.files) {
    const dir = path.dirname(file.fileName);
    if (candidates.has(dir) || declaredDirs.some((declared) => isWithin(dir, declared))) continue;
    const node = firstServiceDeclaration(app, file);
    if (node) candidates.set(dir, node);
  }
  const roots = [...candidates.keys()];
  return [...candidates]
    .filter(([dir]) => !roots.some((other) => other !== dir && isWithin(dir, other)))
    .map(([absDir, node]) => ({ absDir, node }));
}

/** `dir` is `ancestor` or lies inside it. */
export function isWithin(dir: string, ancestor: string): boolean {
  const relative = path.relative(ancestor, dir);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

const SDK_MODULES = /^encore\.dev(\/(api|auth|pubsub))?$/;

function firstServiceDeclaration(app: AppProgram, file: ts.SourceFile): ts.Node | undefined {
  // Only modules importing the SDK's api, auth or pubsub can declare one: the rest are skipped unread.
  const importsSdk = file.statements.some(
    (s) => ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && SDK_MODULES.test(s.moduleSpecifier.text),
  );
  if (!importsSdk) return undefined;
  let found: ts.Node | undefined;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (declaresService(app, node)) found = node;
    else ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function declaresService(app: AppProgram, node: ts.Node): boolean {
  if (ts.isNewExpression(node)) {
    const sdk = sdkExportOf(app.checker, node.expression);
    return isSdkExport(sdk, "api", "Gateway") || isSdkExport(sdk, "pubsub", "Subscription");
  }
  if (!ts.isCallExpression(node)) return false;
  const callee = node.expression;
  const sdk = sdkExportOf(app.checker, callee);
  if (isSdkExport(sdk, "api", "api") || isSdkExport(sdk, "auth", "authHandler")) return true;
  // api.raw(...), api.static(...) and the streaming kinds.
  return ts.isPropertyAccessExpression(callee) && isSdkExport(sdkExportOf(app.checker, callee.expression), "api", "api");
}

/** Encore's rule: no service inside another found this way (a folder with encore.service.ts within one). */
export function checkNotNested(appRoot: string, implicit: readonly ImplicitRoot[], declared: readonly { name: string; absDir: string }[]): void {
  for (const root of implicit) {
    const inner = declared.find((service) => isWithin(service.absDir, root.absDir));
    if (inner) {
      const name = path.basename(root.absDir);
      throw errorAt(appRoot, root.node, `service ${inner.name} cannot be contained within service ${name}, which this declaration makes of folder ${name} (it has no encore.service.ts)`);
    }
  }
}
