import ts from "typescript";
import type { BucketMeta } from "../../meta/types.ts";
import { bucketNameProblem } from "../../objects/names.ts";
import { errorAt, locationOf } from "../program/errors.ts";
import { literalValue, NOT_LITERAL } from "../program/literals.ts";
import { compareText, type AppProgram } from "../program/program.ts";
import { servicesOf, usesOf } from "../services/references.ts";
import { isSdkExport, sdkExportOf } from "../sdk/sdk-symbols.ts";
import { serviceOfFile, type ServiceInfo } from "../services/services.ts";

const settings = ["public", "versioned"] as const;

type Bucket = Omit<BucketMeta, "usedBy"> & { readonly node: ts.NewExpression };

/**
 * `new Bucket(name, cfg)` declarations, sorted by name: a literal name, unique in the app,
 * declared inside a service, with a config of boolean literals (the runtime must know
 * before running the app whether a bucket is public). `Bucket.named("x")` must name one.
 * Each with the services using it: the declaring one, those naming its variable, and
 * those calling `Bucket.named` with its name.
 */
export function findBuckets(app: AppProgram, services: readonly ServiceInfo[]): BucketMeta[] {
  const buckets: Bucket[] = [];
  const references: { name: string; node: ts.Node }[] = [];
  for (const file of app.files) {
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node) && isBucket(app, node.expression)) buckets.push(readBucket(app, services, node, buckets));
      else if (ts.isCallExpression(node) && isNamedReference(app, node.expression)) {
        references.push({ name: nameOf(app, node, "Bucket.named(...)"), node });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  for (const reference of references) {
    if (!buckets.some((b) => b.name === reference.name)) {
      throw errorAt(app.appRoot, reference.node, `Bucket.named("${reference.name}") refers to a bucket that no \`new Bucket("${reference.name}")\` declares`);
    }
  }
  const uses = usesOf(app, buckets.map((bucket) => bucket.node));
  return buckets
    .map(({ node, ...bucket }) => {
      const named = references.filter((reference) => reference.name === bucket.name).map((reference) => reference.node);
      return { ...bucket, usedBy: servicesOf(services, [node, ...uses.get(node)!, ...named]) };
    })
    .sort((a, b) => compareText(a.name, b.name));
}

function isBucket(app: AppProgram, node: ts.Node): boolean {
  return isSdkExport(sdkExportOf(app.checker, node), "storage/objects", "Bucket");
}

function isNamedReference(app: AppProgram, callee: ts.Expression): boolean {
  return ts.isPropertyAccessExpression(callee) && callee.name.text === "named" && isBucket(app, callee.expression);
}

function readBucket(app: AppProgram, services: readonly ServiceInfo[], node: ts.NewExpression, earlier: readonly Bucket[]): Bucket {
  const name = nameOf(app, node, "new Bucket(...)");
  const problem = bucketNameProblem(name);
  if (problem) throw errorAt(app.appRoot, node.arguments![0]!, problem);
  const first = earlier.find((b) => b.name === name);
  if (first) {
    throw errorAt(app.appRoot, node, `bucket "${name}" is already declared at ${first.declaredIn.file}:${first.declaredIn.line}; use Bucket.named("${name}") to refer to it`);
  }
  const service = serviceOfFile(services, node.getSourceFile().fileName);
  if (!service) throw errorAt(app.appRoot, node, `bucket "${name}" must be declared inside a service`);
  const config = configOf(app, node, name);
  return { name, service: service.name, public: config.public, versioned: config.versioned, declaredIn: locationOf(app.appRoot, node), node };
}

function nameOf(app: AppProgram, node: ts.NewExpression | ts.CallExpression, construct: string): string {
  const arg = node.arguments?.[0];
  const value = arg && literalValue(arg);
  if (typeof value !== "string") throw errorAt(app.appRoot, arg ?? node, `the name passed to ${construct} must be a string literal`);
  return value;
}

function configOf(app: AppProgram, node: ts.NewExpression, name: string): Record<(typeof settings)[number], boolean> {
  const configNode = node.arguments?.[1];
  const config = configNode ? literalValue(configNode) : {};
  if (config === NOT_LITERAL || config === null || typeof config !== "object" || Array.isArray(config)) {
    throw errorAt(app.appRoot, configNode!, `the config of bucket "${name}" must be an object literal of true/false values`);
  }
  const values = config as Record<string, unknown>;
  for (const [key, value] of Object.entries(values)) {
    if (!(settings as readonly string[]).includes(key)) {
      throw errorAt(app.appRoot, configNode!, `unknown setting "${key}" of bucket "${name}" (known: ${settings.join(", ")})`);
    }
    if (typeof value !== "boolean") throw errorAt(app.appRoot, configNode!, `"${key}" of bucket "${name}" must be true or false`);
  }
  return { public: values["public"] === true, versioned: values["versioned"] === true };
}
