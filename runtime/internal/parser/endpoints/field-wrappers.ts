import ts from "typescript";
import { isSdkExport, sdkExportOf } from "../sdk/sdk-symbols.ts";

/** A field declared as `Header<...>`, `Query<...>` or `Cookie<...>` from encore.dev/api. */
export interface FieldWrapper {
  readonly location: "header" | "query" | "cookie";
  /** The explicit wire name, when the declaration gives one. */
  readonly wireName?: string;
}

const WRAPPERS = ["Header", "Query", "Cookie"] as const;

// Bounds alias chains such as `type A = B; type B = Header<"x">`.
const MAX_ALIAS_DEPTH = 8;

/**
 * Reads the wrapper from the declared type node: `Header<"X-Foo">` resolves to plain
 * `string` (and `Cookie<"sid">` to a plain `{ value, ...options }` object), so the
 * resolved type no longer says where the value comes from.
 */
export function fieldWrapperOf(checker: ts.TypeChecker, typeNode: ts.TypeNode | undefined, depth = 0): FieldWrapper | undefined {
  if (!typeNode || depth > MAX_ALIAS_DEPTH) return undefined;
  if (ts.isParenthesizedTypeNode(typeNode)) return fieldWrapperOf(checker, typeNode.type, depth);
  if (ts.isUnionTypeNode(typeNode) || ts.isIntersectionTypeNode(typeNode)) {
    for (const member of typeNode.types) {
      const found = fieldWrapperOf(checker, member, depth);
      if (found) return found;
    }
    return undefined;
  }
  if (!ts.isTypeReferenceNode(typeNode)) return undefined;

  const origin = sdkExportOf(checker, typeNode.typeName);
  const location = WRAPPERS.find((name) => isSdkExport(origin, "api", name))?.toLowerCase() as FieldWrapper["location"] | undefined;
  if (location) {
    const wireName = wireNameOf(checker, typeNode.typeArguments ?? []);
    return wireName === undefined ? { location } : { location, wireName };
  }
  return fieldWrapperOf(checker, aliasedTypeNode(checker, typeNode), depth + 1);
}

/**
 * `Header<"X-Foo">` names the field and keeps type string; `Header<number, "X-Count">`
 * gives the type first and the name second (and so for `Query` and `Cookie`).
 */
function wireNameOf(checker: ts.TypeChecker, args: readonly ts.TypeNode[]): string | undefined {
  const [typeOrName, name] = args.map((arg) => checker.getTypeFromTypeNode(arg));
  if (name?.isStringLiteral() && name.value !== "") return name.value;
  if (typeOrName?.isStringLiteral() && typeOrName.value !== "") return typeOrName.value;
  return undefined;
}

/** The type node behind a user's non-generic alias, e.g. `type RequestId = Header<"X-Request-Id">`. */
function aliasedTypeNode(checker: ts.TypeChecker, reference: ts.TypeReferenceNode): ts.TypeNode | undefined {
  let symbol = checker.getSymbolAtLocation(reference.typeName);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol?.declarations?.[0];
  if (!declaration || !ts.isTypeAliasDeclaration(declaration) || declaration.typeParameters) return undefined;
  return declaration.type;
}

/**
 * Whether a response field is declared as `HttpStatus` from encore.dev/api (directly, optional,
 * or through a user's alias): Encore answers with its value as the HTTP status and leaves it
 * out of the body, the generated clients and the OpenAPI document.
 */
export function isHttpStatusField(checker: ts.TypeChecker, typeNode: ts.TypeNode | undefined, depth = 0): boolean {
  if (!typeNode || depth > MAX_ALIAS_DEPTH) return false;
  if (ts.isParenthesizedTypeNode(typeNode)) return isHttpStatusField(checker, typeNode.type, depth);
  if (ts.isUnionTypeNode(typeNode)) return typeNode.types.some((member) => isHttpStatusField(checker, member, depth));
  if (!ts.isTypeReferenceNode(typeNode)) return false;
  if (isSdkExport(sdkExportOf(checker, typeNode.typeName), "api", "HttpStatus")) return true;
  return isHttpStatusField(checker, aliasedTypeNode(checker, typeNode), depth + 1);
}
