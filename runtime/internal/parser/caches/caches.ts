import ts from "typescript";
import type { CacheClusterMeta, CacheKeyspaceMeta } from "../../meta/types.ts";
import { errorAt, locationOf } from "../program/errors.ts";
import { literalValue, NOT_LITERAL, propertyNameOf } from "../program/literals.ts";
import { compareText, type AppProgram } from "../program/program.ts";
import { isSdkExport, sdkExportOf } from "../sdk/sdk-symbols.ts";
import { serviceOfFile, type ServiceInfo } from "../services/services.ts";

const evictionPolicies = [
  "noeviction",
  "allkeys-lru",
  "allkeys-lfu",
  "allkeys-random",
  "volatile-lru",
  "volatile-lfu",
  "volatile-ttl",
  "volatile-random",
] as const;

/** The keyspace classes, with how many type arguments each takes (the key's, and the value's for structs). */
const keyspaceClasses: Readonly<Record<string, number>> = {
  StringKeyspace: 1,
  IntKeyspace: 1,
  FloatKeyspace: 1,
  StructKeyspace: 2,
  StringListKeyspace: 1,
  NumberListKeyspace: 1,
  StringSetKeyspace: 1,
  NumberSetKeyspace: 1,
};

const implicitValueTypes: Readonly<Record<string, string>> = {
  StringKeyspace: "string",
  IntKeyspace: "number",
  FloatKeyspace: "number",
  StringListKeyspace: "string",
  NumberListKeyspace: "number",
  StringSetKeyspace: "string",
  NumberSetKeyspace: "number",
};

type Cluster = Omit<CacheClusterMeta, "keyspaces"> & { keyspaces: CacheKeyspaceMeta[] };

/**
 * `new CacheCluster(name, cfg)` declarations and the keyspaces bound to them, with the rules
 * of Encore's parser (tsparser/src/parser/resources/infra/cache.rs): a literal cluster name,
 * unique in the app, and a known eviction policy; `CacheCluster.named("x")` names a declared
 * cluster. A keyspace takes its cluster (a variable bound to `new CacheCluster` or
 * `CacheCluster.named`), its key type (and for StructKeyspace its value type, an object type),
 * and a literal keyPattern: not starting with "__encore"; with a string or number key its only
 * parameter is `:key`; with a struct key every field is a string, number, boolean or bigint
 * used by the pattern, and every parameter is a field.
 */
export function findCaches(app: AppProgram, services: readonly ServiceInfo[]): CacheClusterMeta[] {
  const clusters = new Map<string, Cluster>();
  const clusterNodes = new Map<ts.Node, string>();
  const references: { name: string; node: ts.CallExpression }[] = [];
  const keyspaces: { node: ts.NewExpression; className: string }[] = [];
  for (const file of app.files) {
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node)) {
        const found = sdkExportOf(app.checker, node.expression);
        if (isSdkExport(found, "storage/cache", "CacheCluster")) {
          const cluster = readCluster(app, node, clusters);
          clusters.set(cluster.name, cluster);
          clusterNodes.set(node, cluster.name);
        } else if (found && isCacheModule(found.module) && keyspaceClasses[found.name] !== undefined) {
          keyspaces.push({ node, className: found.name });
        }
      } else if (ts.isCallExpression(node) && isNamedReference(app, node.expression)) {
        const name = literalName(app, node, "CacheCluster.named(...)");
        references.push({ name, node });
        clusterNodes.set(node, name);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  for (const reference of references) {
    if (!clusters.has(reference.name)) {
      throw errorAt(app.appRoot, reference.node, `CacheCluster.named("${reference.name}") refers to a cache cluster that no \`new CacheCluster("${reference.name}")\` declares`);
    }
  }
  for (const { node, className } of keyspaces) {
    const clusterName = clusterOf(app, node, clusterNodes);
    clusters.get(clusterName)!.keyspaces.push(readKeyspace(app, services, node, className));
  }
  return [...clusters.values()]
    .map((cluster) => ({ ...cluster, keyspaces: cluster.keyspaces.sort((a, b) => compareText(a.keyPattern, b.keyPattern)) }))
    .sort((a, b) => compareText(a.name, b.name));
}

function isCacheModule(module: string): boolean {
  return module === "storage/cache" || module.startsWith("storage/cache/");
}

function isNamedReference(app: AppProgram, callee: ts.Expression): boolean {
  return ts.isPropertyAccessExpression(callee) && callee.name.text === "named" && isSdkExport(sdkExportOf(app.checker, callee.expression), "storage/cache", "CacheCluster");
}

function literalName(app: AppProgram, node: ts.NewExpression | ts.CallExpression, construct: string): string {
  const arg = node.arguments?.[0];
  const value = arg && literalValue(arg);
  if (typeof value !== "string" || value === "") throw errorAt(app.appRoot, arg ?? node, `the name passed to ${construct} must be a non-empty string literal`);
  return value;
}

function readCluster(app: AppProgram, node: ts.NewExpression, earlier: ReadonlyMap<string, Cluster>): Cluster {
  const name = literalName(app, node, "new CacheCluster(...)");
  const first = earlier.get(name);
  if (first) {
    throw errorAt(app.appRoot, node, `cache cluster "${name}" is already declared at ${first.declaredIn.file}:${first.declaredIn.line}; use CacheCluster.named("${name}") to refer to it`);
  }
  let evictionPolicy = "allkeys-lru";
  const configNode = node.arguments?.[1];
  if (configNode) {
    const config = literalValue(configNode);
    if (config === NOT_LITERAL || config === null || typeof config !== "object" || Array.isArray(config)) {
      throw errorAt(app.appRoot, configNode, `the config of cache cluster "${name}" must be an object literal`);
    }
    for (const [key, value] of Object.entries(config)) {
      if (key !== "evictionPolicy") throw errorAt(app.appRoot, configNode, `unknown setting "${key}" of cache cluster "${name}" (known: evictionPolicy)`);
      if (typeof value !== "string" || !(evictionPolicies as readonly string[]).includes(value)) {
        throw errorAt(
          app.appRoot,
          configNode,
          "invalid eviction policy: must be one of noeviction, allkeys-lru, allkeys-lfu, allkeys-random, volatile-lru, volatile-lfu, volatile-ttl, or volatile-random",
        );
      }
      evictionPolicy = value;
    }
  }
  return { name, evictionPolicy, keyspaces: [], declaredIn: locationOf(app.appRoot, node) };
}

/** The cluster a keyspace is bound to: `new CacheCluster`/`CacheCluster.named` inline, or a variable holding one. */
function clusterOf(app: AppProgram, node: ts.NewExpression, clusterNodes: ReadonlyMap<ts.Node, string>): string {
  const arg = node.arguments?.[0];
  if (!arg) throw errorAt(app.appRoot, node, "keyspace constructor requires cluster and config arguments");
  const direct = clusterNodes.get(arg);
  if (direct !== undefined) return direct;
  if (ts.isIdentifier(arg)) {
    let symbol = app.checker.getSymbolAtLocation(arg);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = app.checker.getAliasedSymbol(symbol);
    const declaration = symbol?.valueDeclaration;
    if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer) {
      const bound = clusterNodes.get(declaration.initializer);
      if (bound !== undefined) return bound;
    }
  }
  throw errorAt(app.appRoot, arg, "could not resolve cache cluster reference");
}

function readKeyspace(app: AppProgram, services: readonly ServiceInfo[], node: ts.NewExpression, className: string): CacheKeyspaceMeta {
  const { checker } = app;
  const configNode = node.arguments?.[1];
  if (!configNode) throw errorAt(app.appRoot, node, "keyspace constructor requires cluster and config arguments");
  if (!ts.isObjectLiteralExpression(configNode)) throw errorAt(app.appRoot, configNode, `the config of ${className} must be an object literal`);
  let keyPattern: string | undefined;
  let defaultExpiry: string | null = null;
  for (const property of configNode.properties) {
    const name = propertyNameOf(property);
    if (!ts.isPropertyAssignment(property) || name === undefined) throw errorAt(app.appRoot, property, "cannot use spread for config");
    if (name === "keyPattern") {
      const value = literalValue(property.initializer);
      if (typeof value !== "string") throw errorAt(app.appRoot, property.initializer, "keyPattern must be a string literal");
      keyPattern = value;
    } else if (name === "defaultExpiry") {
      defaultExpiry = property.initializer.getText();
    } else {
      throw errorAt(app.appRoot, property, `unknown setting "${name}" of ${className} (known: keyPattern, defaultExpiry)`);
    }
  }
  if (keyPattern === undefined) throw errorAt(app.appRoot, configNode, `the config of ${className} must give keyPattern`);
  const patternNode = configNode.properties.find((p) => propertyNameOf(p) === "keyPattern")!;
  if (keyPattern.startsWith("__encore")) throw errorAt(app.appRoot, patternNode, "the prefix `__encore` is reserved for internal use by Encore");

  const keyTypeNode = node.typeArguments?.[0];
  if (!keyTypeNode) throw errorAt(app.appRoot, node, "missing key type parameter");
  const keyType = checker.getTypeFromTypeNode(keyTypeNode);
  if (keyType.flags & ts.TypeFlags.Any) throw errorAt(app.appRoot, keyTypeNode, "'any' is not supported as a cache key type");
  if (keyType.flags & ts.TypeFlags.Unknown) throw errorAt(app.appRoot, keyTypeNode, "'unknown' is not supported as a cache key type");
  const params = keyPattern.split("/").filter((s) => s.startsWith(":")).map((s) => s.slice(1));
  if (isBasic(keyType)) {
    if (params.some((p) => p !== "key")) throw errorAt(app.appRoot, patternNode, "KeyPattern parameter must be named ':key' for basic (non-struct) key types");
  } else {
    checkStructKey(app, keyTypeNode, keyType, params, patternNode);
  }

  let valueType = implicitValueTypes[className];
  if (keyspaceClasses[className] === 2) {
    const valueNode = node.typeArguments?.[1];
    if (!valueNode) throw errorAt(app.appRoot, node, "missing value type parameter");
    const value = checker.getTypeFromTypeNode(valueNode);
    if (!(value.flags & ts.TypeFlags.Object) || checker.isArrayType(value)) {
      throw errorAt(app.appRoot, valueNode, "StructKeyspace value type must be an interface or object type");
    }
    valueType = valueNode.getText();
  }
  return {
    type: className,
    keyPattern,
    keyType: keyTypeNode.getText(),
    valueType: valueType!,
    defaultExpiry,
    service: serviceOfFile(services, node.getSourceFile().fileName)?.name ?? null,
    declaredIn: locationOf(app.appRoot, node),
  };
}

const basicFlags = ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike | ts.TypeFlags.BigIntLike;

function isBasic(type: ts.Type): boolean {
  if (type.isUnion()) return type.types.every(isBasic);
  return (type.flags & basicFlags) !== 0;
}

function checkStructKey(app: AppProgram, keyTypeNode: ts.TypeNode, keyType: ts.Type, params: readonly string[], patternNode: ts.Node): void {
  const { checker } = app;
  if (!(keyType.flags & ts.TypeFlags.Object) || checker.isArrayType(keyType)) {
    throw errorAt(app.appRoot, keyTypeNode, `unsupported key type: ${checker.typeToString(keyType)}`);
  }
  const fields = checker.getPropertiesOfType(keyType);
  for (const field of fields) {
    if (field.escapedName.toString().startsWith("__@")) throw errorAt(app.appRoot, keyTypeNode, "cache key type must not contain symbol fields");
    const type = checker.getTypeOfSymbolAtLocation(field, keyTypeNode);
    if (!isBasic(type) || field.flags & ts.SymbolFlags.Optional) {
      throw errorAt(app.appRoot, keyTypeNode, `cache key field '${field.name}' must be a basic type (string, number, or boolean)`);
    }
    if (!params.includes(field.name)) throw errorAt(app.appRoot, keyTypeNode, `cache key field '${field.name}' is not used in the keyPattern`);
  }
  for (const param of params) {
    if (!fields.some((f) => f.name === param)) throw errorAt(app.appRoot, patternNode, `keyPattern parameter '${param}' does not exist in the key type`);
  }
}
