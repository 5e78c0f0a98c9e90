import { docBlock } from "../clientgen/names.ts";
import { REF_KEY, refOf, TypeWriter, type NamedDecl } from "../clientgen/type-text.ts";
import type { JSONSchema } from "../meta/types.ts";
import type { TypeText } from "./api.ts";

/**
 * A schema as the dashboard shows it: TypeScript-like text with the source's doc comments,
 * written by the generated clients' TypeWriter. A named type is written out as its
 * declaration, followed by the declarations of the named types it uses, each once; names
 * from another namespace than `namespace` (the service's) are qualified, as `shop.Item`.
 */
export function typeText(schema: JSONSchema, namespace: string): TypeText {
  const writer = new TypeWriter();
  const top = refOf(schema);
  const written = new Set<string>();
  const parts: string[] = [];
  if (top) {
    written.add(key(top));
    parts.push(declaration(writer, { ref: top, schema: ownSchema(schema) }, namespace));
  } else {
    parts.push(writer.type(schema, namespace));
  }
  // Writing a declaration may meet more named types: until none is left unwritten.
  for (let pending = unwritten(writer, written); pending.length > 0; pending = unwritten(writer, written)) {
    for (const decl of pending) {
      written.add(key(decl.ref));
      parts.push(declaration(writer, decl, namespace));
    }
  }
  return parts.join("\n\n");
}

/** The type of one field of a request, in the same writing as its request's `typeText`. */
export function fieldTypeText(schema: JSONSchema, namespace: string): TypeText {
  return new TypeWriter().type(schema, namespace);
}

function declaration(writer: TypeWriter, decl: NamedDecl, namespace: string): string {
  const name = decl.ref.namespace === namespace ? decl.ref.name : `${decl.ref.namespace}.${decl.ref.name}`;
  const body = writer.type(decl.schema, namespace);
  const head = decl.schema["type"] === "object" && body.startsWith("{") ? `interface ${name} ` : `type ${name} = `;
  return `${docBlock(decl.ref.doc, "")}${head}${body}`;
}

function unwritten(writer: TypeWriter, written: ReadonlySet<string>): NamedDecl[] {
  return [...writer.namespaces().values()].flat().filter((decl) => !written.has(key(decl.ref)));
}

const key = (ref: { namespace: string; name: string }) => `${ref.namespace}\0${ref.name}`;

/** A named type's schema without what belongs to the place it is used. */
function ownSchema(schema: JSONSchema): JSONSchema {
  const { [REF_KEY]: _ref, description: _description, ...rest } = schema;
  return rest;
}
