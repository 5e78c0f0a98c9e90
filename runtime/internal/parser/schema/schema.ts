import ts from "typescript";
import type { JSONSchema } from "../../meta/types.ts";
import { docCommentBefore } from "../program/doc-comments.ts";
import { errorAt, toAppPath, type ParseError } from "../program/errors.ts";
import type { AppProgram } from "../program/program.ts";
import { isSdkExport, sdkExportOfSymbol } from "../sdk/sdk-symbols.ts";
import { serviceOfFile, type ServiceInfo } from "../services/services.ts";
import { unionSchema } from "./union-schema.ts";
import { applyConstraints, constraintOf, type Constraint } from "./validation.ts";

/** Where a type being converted sits, so problems can be reported precisely. */
export interface SchemaSite {
  /** Node whose file:line is reported. */
  readonly node: ts.Node;
  /** What is being described: a type name such as "ShortenParams", or "response of urlb.get". */
  readonly owner: string;
  /** Path of the field inside `owner` ("a.b", "tags[]"); empty for the owner itself. */
  readonly field: string;
}

export interface PropertySchema {
  /** Property name in the TypeScript type. */
  readonly name: string;
  readonly optional: boolean;
  readonly type: ts.Type;
  readonly schema: JSONSchema;
  readonly declaration: ts.Declaration | undefined;
  readonly site: SchemaSite;
}

/**
 * `"x-encore-ref"` on a schema: the named type it comes from, for generated clients. Set on
 * object schemas and literal unions whose type is a non-generic interface, type alias or enum
 * declared in an app file.
 */
export interface NamedRef {
  /** The service whose folder declares it; else its folder, app-relative, with other characters than letters, digits and `_` as `_`. */
  readonly namespace: string;
  readonly name: string;
  /** The declaration's doc comment, by Encore's rule. */
  readonly doc: string | null;
}

export const REF_KEY = "x-encore-ref";

export const DATE_SCHEMA: JSONSchema = { type: "string", format: "date-time", "x-encore-type": "date" };

/** `Decimal` from encore.dev/types: a string on the wire, as in Encore, read into a Decimal before the handler. */
export const DECIMAL_SCHEMA: JSONSchema = { type: "string", "x-encore-type": "decimal" };

const NOT_SERIALIZABLE = new Set([
  "Map", "ReadonlyMap", "WeakMap", "Set", "ReadonlySet", "WeakSet", "Promise", "PromiseLike",
  "RegExp", "Error", "Function", "Symbol", "ArrayBuffer", "Buffer", "Blob",
]);
// Generic instantiations can expand forever without ever repeating a Type object.
const MAX_DEPTH = 48;

/** Converts checker types to JSON Schema; one instance per app so the checker is reused. */
export class SchemaBuilder {
  private readonly inProgress = new Set<ts.Type>();

  constructor(
    private readonly app: AppProgram,
    private readonly services: readonly ServiceInfo[] = [],
  ) {}

  get checker(): ts.TypeChecker {
    return this.app.checker;
  }

  schemaOf(type: ts.Type, site: SchemaSite): JSONSchema {
    const flags = type.flags;
    if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
    if (flags & (ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral | ts.TypeFlags.StringMapping)) return { type: "string" };
    if (flags & ts.TypeFlags.Number) return { type: "number" };
    // `boolean` is the union true | false, so it must be caught before unions.
    if (flags & ts.TypeFlags.Boolean) return { type: "boolean" };
    if (flags & ts.TypeFlags.Union) {
      const schema = unionSchema(this.checker, type as ts.UnionType, (member) => this.schemaOf(member, site), (reason) =>
        this.fail(site, type, reason),
      );
      return Array.isArray(schema["enum"]) ? this.withRef(schema, type) : schema;
    }
    if (type.isStringLiteral() || type.isNumberLiteral()) {
      if (flags & ts.TypeFlags.EnumLiteral) return { type: typeof type.value, enum: [type.value] };
      return { const: type.value };
    }
    if (flags & ts.TypeFlags.BooleanLiteral) return { const: this.checker.typeToString(type) === "true" };
    if (flags & ts.TypeFlags.Null) return { type: "null" };
    if (flags & ts.TypeFlags.Intersection) return this.intersectionSchema(type as ts.IntersectionType, site);
    if (flags & ts.TypeFlags.NonPrimitive) return { type: "object" };
    if (flags & ts.TypeFlags.Object) return this.objectLikeSchema(type as ts.ObjectType, site);
    return this.fail(site, type, unsupportedReason(flags));
  }

  /** Every serializable property of an object type, with its schema. */
  propertiesOf(type: ts.Type, site: SchemaSite): PropertySchema[] {
    return this.guarded(type, site, () => this.collectProperties(type, site));
  }

  fail(site: SchemaSite, type: ts.Type, reason: string): never {
    throw this.failure(site, type, reason);
  }

  failure(site: SchemaSite, type: ts.Type, reason: string): ParseError {
    const text = this.checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation);
    return errorAt(this.app.appRoot, site.node, `unsupported type "${text}" in ${describeSite(site)}: ${reason}`);
  }

  /** Property declarations in the app locate errors best; ones in libraries do not help the user. */
  private reportNode(declaration: ts.Node | undefined, fallback: ts.Node): ts.Node {
    if (!declaration) return fallback;
    const relative = toAppPath(this.app.appRoot, declaration.getSourceFile().fileName);
    const inApp = !relative.startsWith("../") && !relative.split("/").includes("node_modules");
    return inApp ? declaration : fallback;
  }

  /** The named type `type` comes from, when it is one clients can name; see NamedRef. */
  namedRef(type: ts.Type): NamedRef | undefined {
    const aliasArguments = type.aliasTypeArguments ?? [];
    const symbol = type.aliasSymbol ?? type.getSymbol();
    if (!symbol || (type.aliasSymbol && aliasArguments.length > 0)) return undefined;
    if (!type.aliasSymbol && type.flags & ts.TypeFlags.Object) {
      const reference = type as ts.TypeReference;
      if ((reference.objectFlags & ts.ObjectFlags.Reference) !== 0 && (reference.typeArguments?.length ?? 0) > 0) return undefined;
    }
    const declaration = symbol.declarations?.find(
      (d) => ts.isInterfaceDeclaration(d) || ts.isTypeAliasDeclaration(d) || ts.isEnumDeclaration(d),
    );
    if (!declaration || (!ts.isEnumDeclaration(declaration) && declaration.typeParameters)) return undefined;
    const fileName = declaration.getSourceFile().fileName;
    const relative = toAppPath(this.app.appRoot, fileName);
    if (relative.startsWith("../") || relative.split("/").includes("node_modules") || declaration.getSourceFile().isDeclarationFile) {
      return undefined;
    }
    const folder = relative.includes("/") ? relative.slice(0, relative.lastIndexOf("/")) : "";
    const namespace =
      serviceOfFile(this.services, fileName)?.name ??
      (folder || (this.app.appRoot.split(/[\\/]/).pop() ?? "app")).replace(/[^A-Za-z0-9_]/g, "_");
    return { namespace, name: symbol.name, doc: docCommentBefore(declaration) };
  }

  private withRef(schema: JSONSchema, type: ts.Type): JSONSchema {
    const ref = this.namedRef(type);
    return ref ? { ...schema, [REF_KEY]: ref } : schema;
  }

  private withDescription(schema: JSONSchema, symbol: ts.Symbol): JSONSchema {
    const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
    const description =
      (declaration && docCommentBefore(declaration)) ??
      ts.displayPartsToString(symbol.getDocumentationComment(this.checker)).trim();
    return description ? { ...schema, description } : schema;
  }

  private intersectionSchema(type: ts.IntersectionType, site: SchemaSite): JSONSchema {
    const constraints: Constraint[] = [];
    const bases: ts.Type[] = [];
    for (const member of type.types) {
      const constraint = constraintOf(this.checker, member);
      if (typeof constraint === "string") return this.fail(site, type, constraint);
      if (constraint) constraints.push(constraint);
      else bases.push(member);
    }
    if (constraints.length === 0) {
      const allObjects = bases.every((member) => member.flags & ts.TypeFlags.Object && !this.checker.isArrayType(member));
      if (allObjects) return this.objectSchema(type, site);
      return this.fail(site, type, "intersections are only supported between object types or with encore.dev/validate markers");
    }
    const [base] = bases;
    if (!base || bases.length > 1) {
      return this.fail(site, type, "validation markers must be combined with exactly one base type, e.g. string & MaxLen<10>");
    }
    const applied = applyConstraints(this.schemaOf(base, site), constraints);
    return typeof applied === "string" ? this.fail(site, type, applied) : applied;
  }

  private objectLikeSchema(type: ts.ObjectType, site: SchemaSite): JSONSchema {
    if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) {
      return this.fail(site, type, "functions are not serializable");
    }
    const builtin = this.builtinName(type);
    if (builtin === "Date") return DATE_SCHEMA;
    if (this.isDecimal(type)) return DECIMAL_SCHEMA;
    if (builtin && NOT_SERIALIZABLE.has(builtin)) return this.fail(site, type, `${builtin} is not serializable`);
    if (this.checker.isTupleType(type)) return this.fail(site, type, "tuples are not supported; use an array or an object");
    if (this.checker.isArrayType(type)) {
      const [element] = this.checker.getTypeArguments(type as ts.TypeReference);
      if (!element) return this.fail(site, type, "array element type is unknown");
      return { type: "array", items: this.schemaOf(element, { ...site, field: `${site.field}[]` }) };
    }
    return this.objectSchema(type, site);
  }

  private objectSchema(type: ts.Type, site: SchemaSite): JSONSchema {
    return this.guarded(type, site, () => {
      const properties: Record<string, JSONSchema> = {};
      const required: string[] = [];
      for (const property of this.collectProperties(type, site)) {
        properties[property.name] = property.schema;
        if (!property.optional) required.push(property.name);
      }
      const schema: Record<string, unknown> = { type: "object" };
      const additional = this.indexSignatureSchema(type, site);
      if (Object.keys(properties).length > 0 || !additional) schema["properties"] = properties;
      if (required.length > 0) schema["required"] = required;
      if (additional) schema["additionalProperties"] = additional;
      return this.withRef(schema, type);
    });
  }

  /** Runs `convert` with `type` marked as being converted, so meeting it again inside means recursion. */
  private guarded<T>(type: ts.Type, site: SchemaSite, convert: () => T): T {
    if (this.inProgress.has(type)) return this.fail(site, type, "recursive types are not supported");
    if (this.inProgress.size >= MAX_DEPTH) {
      return this.fail(site, type, "type is nested too deeply (a recursive generic type?)");
    }
    this.inProgress.add(type);
    try {
      return convert();
    } finally {
      this.inProgress.delete(type);
    }
  }

  private collectProperties(type: ts.Type, site: SchemaSite): PropertySchema[] {
    const result: PropertySchema[] = [];
    for (const symbol of this.checker.getPropertiesOfType(type)) {
      // Symbol-keyed properties never reach JSON.
      if (symbol.escapedName.toString().startsWith("__@")) continue;
      const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
      if (declaration && (ts.isMethodSignature(declaration) || ts.isMethodDeclaration(declaration))) {
        this.fail(site, type, `it has method "${symbol.name}": values with methods (class instances) are not serializable`);
      }
      const field = site.field ? `${site.field}.${symbol.name}` : symbol.name;
      const propertySite: SchemaSite = { ...site, field, node: this.reportNode(declaration, site.node) };
      const propertyType = this.checker.getTypeOfSymbol(symbol);
      const optional = (symbol.flags & ts.SymbolFlags.Optional) !== 0 || includesUndefined(propertyType);
      const schema = this.withDescription(this.schemaOf(propertyType, propertySite), symbol);
      result.push({ name: symbol.name, optional, type: propertyType, schema, declaration, site: propertySite });
    }
    return result;
  }

  /** `Record<string, T>` and `[key: string]: T` allow any key with values of T. */
  private indexSignatureSchema(type: ts.Type, site: SchemaSite): JSONSchema | undefined {
    const infos = this.checker.getIndexInfosOfType(type);
    const info =
      infos.find((candidate) => candidate.keyType.flags & ts.TypeFlags.String) ??
      infos.find((candidate) => candidate.keyType.flags & (ts.TypeFlags.Number | ts.TypeFlags.TemplateLiteral));
    if (!info) return undefined;
    return this.schemaOf(info.type, { ...site, field: `${site.field}[key]` });
  }

  private isDecimal(type: ts.Type): boolean {
    const symbol = type.getSymbol();
    return symbol !== undefined && isSdkExport(sdkExportOfSymbol(this.checker, symbol), "types", "Decimal");
  }

  /** Name of a type declared only by the standard library or @types packages, e.g. "Date". */
  private builtinName(type: ts.Type): string | undefined {
    const symbol = type.getSymbol();
    const declarations = symbol?.declarations;
    if (!symbol || !declarations || declarations.length === 0) return undefined;
    const builtin = declarations.every((declaration) => {
      const file = declaration.getSourceFile();
      return this.app.program.isSourceFileDefaultLibrary(file) || /[\\/]node_modules[\\/](@types|typescript)[\\/]/.test(file.fileName);
    });
    return builtin ? symbol.name : undefined;
  }
}

export function describeSite(site: SchemaSite): string {
  return site.field ? `field "${site.field}" of ${site.owner}` : site.owner;
}

/** A readable name for a request or response type, or undefined for anonymous literals. */
export function typeName(type: ts.Type): string | undefined {
  const alias = type.aliasSymbol?.name;
  if (alias) return alias;
  const name = type.getSymbol()?.name;
  return name && !name.startsWith("__") ? name : undefined;
}

function includesUndefined(type: ts.Type): boolean {
  if (type.flags & ts.TypeFlags.Undefined) return true;
  return type.isUnion() && type.types.some((member) => member.flags & ts.TypeFlags.Undefined);
}

function unsupportedReason(flags: ts.TypeFlags): string {
  if (flags & (ts.TypeFlags.BigInt | ts.TypeFlags.BigIntLiteral)) return "bigint is not JSON-serializable";
  if (flags & (ts.TypeFlags.ESSymbol | ts.TypeFlags.UniqueESSymbol)) return "symbols are not serializable";
  if (flags & ts.TypeFlags.Never) return "never has no values";
  if (flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) return "undefined is not serializable";
  if (flags & ts.TypeFlags.TypeParameter) return "generic type parameters must be resolved to concrete types";
  if (flags & (ts.TypeFlags.Conditional | ts.TypeFlags.Index | ts.TypeFlags.IndexedAccess | ts.TypeFlags.Substitution)) {
    return "the type depends on an unresolved generic type parameter";
  }
  return "this kind of type cannot be described as JSON";
}
