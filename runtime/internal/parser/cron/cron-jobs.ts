import ts from "typescript";
import type { CronJobMeta, EndpointMeta } from "../../meta/types.ts";
import { cronSchedule, everySchedule, type JobContext } from "./cron-schedule.ts";
import { errorAt, locationOf, toAppPath } from "../program/errors.ts";
import { literalValue, propertyNameOf } from "../program/literals.ts";
import { compareText, type AppProgram } from "../program/program.ts";
import { isSdkExport, sdkExportOf } from "../sdk/sdk-symbols.ts";
import { serviceOfFile, type ServiceInfo } from "../services/services.ts";

/** `new CronJob(...)` declarations, checked with Encore's rules, sorted by name. */
export function findCronJobs(app: AppProgram, services: readonly ServiceInfo[], endpoints: readonly EndpointMeta[]): CronJobMeta[] {
  const jobs: CronJobMeta[] = [];
  for (const file of app.files) {
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node) && isSdkExport(sdkExportOf(app.checker, node.expression), "cron", "CronJob")) {
        jobs.push(readCronJob(app, services, endpoints, node, jobs));
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return jobs.sort((a, b) => compareText(a.name, b.name));
}

function readCronJob(
  app: AppProgram,
  services: readonly ServiceInfo[],
  endpoints: readonly EndpointMeta[],
  node: ts.NewExpression,
  earlierJobs: readonly CronJobMeta[],
): CronJobMeta {
  const nameNode = node.arguments?.[0];
  const name = nameNode && literalValue(nameNode);
  if (typeof name !== "string") throw errorAt(app.appRoot, nameNode ?? node, "the name passed to new CronJob(...) must be a string literal");
  const earlier = earlierJobs.find((job) => job.name === name);
  if (earlier) {
    throw errorAt(app.appRoot, node, `cron job "${name}" is already declared at ${earlier.declaredIn.file}:${earlier.declaredIn.line}`);
  }
  const service = serviceOfFile(services, node.getSourceFile().fileName);
  if (!service) throw errorAt(app.appRoot, node, `cron job "${name}" must be declared inside a service`);

  const job: JobContext = { appRoot: app.appRoot, name };
  const config = configOf(job, node);
  const endpointNode = config.values.get("endpoint");
  if (!endpointNode) throw errorAt(app.appRoot, config.node, `cron job "${name}" has no \`endpoint\``);
  const titleNode = config.values.get("title");
  const title = titleNode ? literalValue(titleNode) : null;
  if (typeof title !== "string" && title !== null) {
    throw errorAt(app.appRoot, titleNode!, `the title of cron job "${name}" must be a string literal`);
  }
  return {
    name,
    title,
    service: service.name,
    endpoint: endpointOf(app, job, endpointNode, endpoints),
    schedule: scheduleOf(job, config),
    declaredIn: locationOf(app.appRoot, node),
  };
}

interface Config {
  readonly node: ts.Node;
  /** Property name to the expression giving its value (the identifier itself for `{ endpoint }`). */
  readonly values: ReadonlyMap<string, ts.Expression>;
}

function configOf(job: JobContext, node: ts.NewExpression): Config {
  let expr: ts.Expression | undefined = node.arguments?.[1];
  while (expr && (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isSatisfiesExpression(expr))) expr = expr.expression;
  if (!expr || !ts.isObjectLiteralExpression(expr)) {
    throw errorAt(job.appRoot, node.arguments?.[1] ?? node, `the config of cron job "${job.name}" must be an object literal`);
  }
  const values = new Map<string, ts.Expression>();
  for (const member of expr.properties) {
    const key = propertyNameOf(member);
    if (key !== undefined && ts.isPropertyAssignment(member)) values.set(key, member.initializer);
    else if (key !== undefined && ts.isShorthandPropertyAssignment(member)) values.set(key, member.name);
    // A spread or computed key could hide `every` or `endpoint` from the parser.
    else throw errorAt(job.appRoot, member, `the config of cron job "${job.name}" must be an object literal with plain properties`);
  }
  return { node: expr, values };
}

function scheduleOf(job: JobContext, config: Config): CronJobMeta["schedule"] {
  const every = config.values.get("every");
  const schedule = config.values.get("schedule");
  if (every && schedule) {
    throw errorAt(job.appRoot, config.node, `cron job "${job.name}": expected either \`every\` or \`schedule\`, not both`);
  }
  if (every) return everySchedule(job, every);
  if (schedule) return cronSchedule(job, schedule);
  throw errorAt(job.appRoot, config.node, `cron job "${job.name}": expected either \`every\` or \`schedule\``);
}

/** The app endpoint `node` refers to, following imports and re-exports to its `export const`. */
function endpointOf(app: AppProgram, job: JobContext, node: ts.Expression, endpoints: readonly EndpointMeta[]): CronJobMeta["endpoint"] {
  const declaration = declarationOf(app.checker, node);
  const file = declaration && toAppPath(app.appRoot, declaration.getSourceFile().fileName);
  const endpoint = declaration && endpoints.find((e) => e.file === file && e.name === declaration.name.text);
  if (!endpoint) throw errorAt(app.appRoot, node, `the endpoint of cron job "${job.name}" must be an api() endpoint`);
  const label = `${endpoint.service}.${endpoint.name}`;
  if (endpoint.kind !== "typed") {
    throw errorAt(app.appRoot, node, `the endpoint of cron job "${job.name}" must take no parameters; ${label} is an api.${endpoint.kind} endpoint`);
  }
  if (endpoint.request !== null) {
    throw errorAt(app.appRoot, node, `the endpoint of cron job "${job.name}" must take no parameters; ${label} takes a request`);
  }
  return { service: endpoint.service, name: endpoint.name };
}

type NamedDeclaration = ts.VariableDeclaration & { readonly name: ts.Identifier };

function declarationOf(checker: ts.TypeChecker, node: ts.Expression): NamedDeclaration | undefined {
  let symbol = ts.isShorthandPropertyAssignment(node.parent) && node.parent.name === node
    ? checker.getShorthandAssignmentValueSymbol(node.parent)
    : checker.getSymbolAtLocation(ts.isPropertyAccessExpression(node) ? node.name : node);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol?.valueDeclaration;
  return declaration && ts.isVariableDeclaration(declaration) && ts.isIdentifier(declaration.name)
    ? (declaration as NamedDeclaration)
    : undefined;
}
