/** Identifiers, string literals and comments as they appear in generated client code. */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `name` as a TypeScript identifier: characters other than letters, digits, `_` and `$` become `_` (Encore's rule). */
export function identifier(name: string): string {
  if (name === "") return "_";
  const replaced = name.replace(/[^\p{L}\p{N}$_]/gu, "_");
  return /^[\p{L}_$]/u.test(replaced) ? replaced : `_${replaced.slice(1)}`;
}

/** A JSON string literal, which is also a valid JS string literal (U+2028/9 escaped for old parsers). */
export function quote(text: string): string {
  return JSON.stringify(text).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** An object key: bare when it is an identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : quote(name);
}

/** `object.name`, or `object["name"]` when the name is not an identifier. */
export function member(object: string, name: string): string {
  return IDENTIFIER.test(name) ? `${object}.${name}` : `${object}[${quote(name)}]`;
}

// Names the generated methods use for their own variables, and the language's reserved words.
const RESERVED = new Set([
  "params", "headers", "query", "body", "resp", "rtn", "method", "options",
  "abstract", "any", "arguments", "as", "async", "await", "boolean", "break", "case", "catch", "class", "const",
  "constructor", "continue", "debugger", "declare", "default", "delete", "do", "else", "enum", "eval", "export",
  "extends", "false", "finally", "for", "from", "function", "get", "if", "implements", "import", "in", "instanceof",
  "interface", "let", "module", "namespace", "new", "null", "number", "of", "package", "private", "protected",
  "public", "require", "return", "set", "static", "string", "super", "switch", "symbol", "this", "throw", "true",
  "try", "type", "typeof", "var", "void", "while", "with", "yield",
]);

/** A path parameter's name as a method argument: prefixed with `_` where it would clash. */
export function argumentName(name: string): string {
  const id = identifier(name);
  return RESERVED.has(id) ? `_${id}` : id;
}

/** A `/** ... *\/` block for `doc` at `indent`, or "" without a doc; `*\/` inside is defused. */
export function docBlock(doc: string | null | undefined, indent: string): string {
  if (!doc) return "";
  const lines = doc.split(/\r?\n/).map((line) => `${indent} * ${line.replace(/\*\//g, "*\\/")}`.trimEnd());
  return `${indent}/**\n${lines.join("\n")}\n${indent} */\n`;
}
