import type { JSONSchema } from "../meta/types.ts";
import { docBlock, identifier, propertyKey, quote } from "./names.ts";

/** What the parser puts on schemas of named types (see JSONSchema in meta/types.ts). */
export interface NamedRef {
  readonly namespace: string;
  readonly name: string;
  readonly doc: string | null;
}

/** A named type the client declares in its namespace: an interface, or a type alias. */
export interface NamedDecl {
  readonly ref: NamedRef;
  /** Its schema without the annotations that belong to the place it was used. */
  readonly schema: JSONSchema;
}

export const REF_KEY = "x-encore-ref";
const INDENT = "    ";

export function refOf(schema: JSONSchema): NamedRef | undefined {
  const ref = schema[REF_KEY] as NamedRef | undefined;
  return ref && typeof ref.name === "string" && typeof ref.namespace === "string" ? ref : undefined;
}

/**
 * Writes TypeScript types for the parser's schemas, as they are on the wire: dates are ISO
 * strings. A schema of a named type becomes a reference to a declaration in its namespace;
 * the declarations met are collected, to be written once each. Two different types of the
 * same name in one namespace: the second is written inline wherever it is used.
 */
export class TypeWriter {
  private readonly decls = new Map<string, NamedDecl>();

  /** The declarations referenced so far, by namespace, each sorted by name. */
  namespaces(): Map<string, NamedDecl[]> {
    const byNamespace = new Map<string, NamedDecl[]>();
    for (const decl of this.decls.values()) {
      byNamespace.set(decl.ref.namespace, [...(byNamespace.get(decl.ref.namespace) ?? []), decl]);
    }
    for (const list of byNamespace.values()) list.sort((a, b) => (a.ref.name < b.ref.name ? -1 : a.ref.name > b.ref.name ? 1 : 0));
    return byNamespace;
  }

  /** The type of `schema` as written inside namespace `ns` (top level: ""), nested `depth` levels deep. */
  type(schema: JSONSchema, ns: string, depth = 0): string {
    const ref = refOf(schema);
    if (ref) {
      const named = this.reference(ref, schema, ns);
      if (named) return named;
    }
    return this.structure(schema, ns, depth);
  }

  /** The declaration text of `decl` inside its namespace, indented one level. */
  declaration(decl: NamedDecl): string {
    const name = identifier(decl.ref.name);
    const body = this.structure(decl.schema, decl.ref.namespace, 1);
    const isInterface = decl.schema["type"] === "object" && body.startsWith("{");
    const head = isInterface ? `export interface ${name} ` : `export type ${name} = `;
    return `${docBlock(decl.ref.doc, INDENT)}${INDENT}${head}${body}\n`;
  }

  /** A reference to the named type, declaring it; undefined when another type already has that name. */
  private reference(ref: NamedRef, schema: JSONSchema, ns: string): string | undefined {
    const key = `${ref.namespace}\0${ref.name}`;
    const own = declSchema(schema);
    const existing = this.decls.get(key);
    if (!existing) this.decls.set(key, { ref, schema: own });
    else if (JSON.stringify(existing.schema) !== JSON.stringify(own)) return undefined;
    const name = identifier(ref.name);
    return ref.namespace === ns ? name : `${identifier(ref.namespace)}.${name}`;
  }

  private structure(schema: JSONSchema, ns: string, depth: number): string {
    if (schema["x-encore-type"] === "date") return withNull("string", schema);
    if (Array.isArray(schema["enum"])) return union(schema["enum"].map(literal));
    if ("const" in schema) return literal(schema["const"]);
    const anyOf = schema["anyOf"] ?? schema["oneOf"];
    if (Array.isArray(anyOf)) return union(anyOf.map((branch: JSONSchema) => this.type(branch, ns, depth)));
    const type = schema["type"];
    if (Array.isArray(type)) return union(type.map((name: string) => this.structure({ ...schema, type: name }, ns, depth)));
    switch (type) {
      case "string":
        return "string";
      case "number":
      case "integer":
        return "number";
      case "boolean":
        return "boolean";
      case "null":
        return "null";
      case "array": {
        const items = schema["items"] as JSONSchema | undefined;
        const element = items ? this.type(items, ns, depth) : "any";
        return element.includes(" | ") && !element.startsWith("{") ? `(${element})[]` : `${element}[]`;
      }
      case "object":
        return this.object(schema, ns, depth);
      default:
        return "any";
    }
  }

  private object(schema: JSONSchema, ns: string, depth: number): string {
    const properties = schema["properties"] as Record<string, JSONSchema> | undefined;
    const additional = schema["additionalProperties"] as JSONSchema | boolean | undefined;
    if (!properties && (additional === undefined || additional === true)) return "{ [key: string]: any }";
    const required = new Set((schema["required"] ?? []) as string[]);
    const inner = INDENT.repeat(depth + 1);
    const entries = Object.entries(properties ?? {});
    const lines = entries.map(([name, property], i) => {
      const doc = typeof property["description"] === "string" ? property["description"] : null;
      const field = `${docBlock(doc, inner)}${inner}${propertyKey(name)}${required.has(name) ? "" : "?"}: ${this.type(property, ns, depth + 1)}\n`;
      return doc && i < entries.length - 1 ? `${field}\n` : field;
    });
    if (additional && typeof additional === "object") lines.push(`${inner}[key: string]: ${this.type(additional, ns, depth + 1)}\n`);
    return `{\n${lines.join("")}${INDENT.repeat(depth)}}`;
  }
}

/** A named type's own schema: without the reference, and without the doc of the field that used it. */
function declSchema(schema: JSONSchema): JSONSchema {
  const { [REF_KEY]: _ref, description: _description, ...rest } = schema;
  return rest;
}

function withNull(text: string, schema: JSONSchema): string {
  return Array.isArray(schema["type"]) && schema["type"].includes("null") ? `${text} | null` : text;
}

function literal(value: unknown): string {
  return typeof value === "string" ? quote(value) : JSON.stringify(value);
}

function union(members: readonly string[]): string {
  const unique = [...new Set(members)];
  return unique.length === 0 ? "never" : unique.join(" | ");
}
