import path from "node:path";
import ts from "typescript";
import type { DatabaseMeta } from "../../meta/types.ts";
import { errorAt, locationOf, toAppPath } from "../program/errors.ts";
import { literalValue, NOT_LITERAL } from "../program/literals.ts";
import { compareText, type AppProgram } from "../program/program.ts";
import { servicesOf, usesOf } from "../services/references.ts";
import { isSdkExport, sdkExportOf } from "../sdk/sdk-symbols.ts";
import { serviceOfFile, type ServiceInfo } from "../services/services.ts";

export interface Resources {
  readonly databases: DatabaseMeta[];
  readonly secrets: string[];
}

type Database = Omit<DatabaseMeta, "usedBy"> & { readonly node: ts.NewExpression };

interface Found {
  readonly databases: Database[];
  readonly references: { readonly name: string; readonly node: ts.Node }[];
  readonly secrets: Set<string>;
}

/** Databases (`new SQLDatabase`) with the services using them, and secrets (`secret(...)`). */
export function findResources(app: AppProgram, services: readonly ServiceInfo[]): Resources {
  const found: Found = { databases: [], references: [], secrets: new Set() };
  for (const file of app.files) {
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node)) readDatabase(app, services, node, found);
      else if (ts.isCallExpression(node)) readCall(app, node, found);
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  for (const reference of found.references) {
    if (!found.databases.some((database) => database.name === reference.name)) {
      throw errorAt(app.appRoot, reference.node, `SQLDatabase.named("${reference.name}") refers to a database that no \`new SQLDatabase("${reference.name}")\` declares`);
    }
  }
  const uses = usesOf(app, found.databases.map((database) => database.node));
  const databases = found.databases.map(({ node, ...database }) => {
    const named = found.references.filter((reference) => reference.name === database.name).map((reference) => reference.node);
    return { ...database, usedBy: servicesOf(services, [node, ...uses.get(node)!, ...named]) };
  });
  return {
    databases: databases.sort((a, b) => compareText(a.name, b.name)),
    secrets: [...found.secrets].sort(compareText),
  };
}

function readDatabase(app: AppProgram, services: readonly ServiceInfo[], node: ts.NewExpression, found: Found): void {
  if (!isSdkExport(sdkExportOf(app.checker, node.expression), "storage", "SQLDatabase")) return;
  const name = stringArgument(app, node, "new SQLDatabase(...)");
  const declaredIn = locationOf(app.appRoot, node);
  const earlier = found.databases.find((database) => database.name === name);
  if (earlier) {
    throw errorAt(app.appRoot, node, `database "${name}" is already declared at ${earlier.declaredIn.file}:${earlier.declaredIn.line}; use SQLDatabase.named("${name}") to reference it`);
  }
  const service = serviceOfFile(services, node.getSourceFile().fileName);
  if (!service) throw errorAt(app.appRoot, node, `database "${name}" must be declared inside a service`);
  const { dir, source } = migrationsOf(app, node, name);
  found.databases.push({ name, service: service.name, migrationsDir: dir, migrationsSource: source, declaredIn, node });
}

function readCall(app: AppProgram, node: ts.CallExpression, found: Found): void {
  const callee = node.expression;
  if (isSdkExport(sdkExportOf(app.checker, callee), "config", "secret")) {
    found.secrets.add(stringArgument(app, node, "secret(...)"));
    return;
  }
  const isNamed =
    ts.isPropertyAccessExpression(callee) &&
    callee.name.text === "named" &&
    isSdkExport(sdkExportOf(app.checker, callee.expression), "storage", "SQLDatabase");
  if (isNamed) found.references.push({ name: stringArgument(app, node, "SQLDatabase.named(...)"), node });
}

function stringArgument(app: AppProgram, node: ts.CallExpression | ts.NewExpression, construct: string): string {
  const arg = node.arguments?.[0];
  if (!arg || !(ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg))) {
    throw errorAt(app.appRoot, arg ?? node, `the name passed to ${construct} must be a string literal`);
  }
  return arg.text;
}

interface Migrations {
  readonly dir: string | null;
  readonly source: DatabaseMeta["migrationsSource"];
}

function migrationsOf(app: AppProgram, node: ts.NewExpression, name: string): Migrations {
  const configNode = node.arguments?.[1];
  const none: Migrations = { dir: null, source: "sql" };
  if (!configNode) return none;
  const config = literalValue(configNode);
  if (config === NOT_LITERAL || config === null || typeof config !== "object" || Array.isArray(config)) {
    throw errorAt(app.appRoot, configNode, `the config of database "${name}" must be an object literal`);
  }
  const migrations = (config as Record<string, unknown>)["migrations"];
  if (migrations === undefined) return none;
  const spec = typeof migrations === "string" ? { path: migrations } : (migrations as Record<string, unknown>);
  if (typeof spec["path"] !== "string") {
    throw errorAt(app.appRoot, configNode, `"migrations" of database "${name}" must be a path or { path, source }`);
  }
  const source = spec["source"] ?? "sql";
  if (source !== "sql" && source !== "drizzle" && source !== "prisma") {
    throw errorAt(app.appRoot, configNode, `migrations source ${JSON.stringify(source)} of database "${name}" is not supported (only plain SQL files, "drizzle" and "prisma")`);
  }
  const absolute = path.resolve(path.dirname(node.getSourceFile().fileName), spec["path"]);
  return { dir: toAppPath(app.appRoot, absolute), source };
}
