import ts from "typescript";

export type LiteralValue =
  | string
  | number
  | boolean
  | null
  | readonly LiteralValue[]
  | { readonly [key: string]: LiteralValue };

/** Marks an expression that is not a compile-time literal. */
export const NOT_LITERAL: unique symbol = Symbol("not a literal");

/**
 * The value of a literal expression: strings, numbers (with constant arithmetic, so
 * `10 * 1024 * 1024` works), booleans, null, and arrays or objects of those.
 * Returns NOT_LITERAL for anything that would need running the program.
 */
export function literalValue(expr: ts.Expression): LiteralValue | typeof NOT_LITERAL {
  if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isSatisfiesExpression(expr)) {
    return literalValue(expr.expression);
  }
  if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return expr.text;
  if (ts.isNumericLiteral(expr)) return Number(expr.text);
  switch (expr.kind) {
    case ts.SyntaxKind.TrueKeyword:
      return true;
    case ts.SyntaxKind.FalseKeyword:
      return false;
    case ts.SyntaxKind.NullKeyword:
      return null;
  }
  if (ts.isPrefixUnaryExpression(expr)) return signedNumber(expr);
  if (ts.isBinaryExpression(expr)) return arithmetic(expr);
  if (ts.isArrayLiteralExpression(expr)) return arrayLiteral(expr);
  if (ts.isObjectLiteralExpression(expr)) return objectLiteral(expr);
  return NOT_LITERAL;
}

/** The static name of an object literal property, or undefined for computed names and spreads. */
export function propertyNameOf(member: ts.ObjectLiteralElementLike): string | undefined {
  const name = member.name;
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return undefined;
}

function signedNumber(expr: ts.PrefixUnaryExpression): number | typeof NOT_LITERAL {
  const operand = literalValue(expr.operand);
  if (typeof operand !== "number") return NOT_LITERAL;
  if (expr.operator === ts.SyntaxKind.MinusToken) return -operand;
  if (expr.operator === ts.SyntaxKind.PlusToken) return operand;
  return NOT_LITERAL;
}

function arithmetic(expr: ts.BinaryExpression): number | typeof NOT_LITERAL {
  const left = literalValue(expr.left);
  const right = literalValue(expr.right);
  if (typeof left !== "number" || typeof right !== "number") return NOT_LITERAL;
  switch (expr.operatorToken.kind) {
    case ts.SyntaxKind.PlusToken:
      return left + right;
    case ts.SyntaxKind.MinusToken:
      return left - right;
    case ts.SyntaxKind.AsteriskToken:
      return left * right;
    case ts.SyntaxKind.SlashToken:
      return left / right;
    case ts.SyntaxKind.AsteriskAsteriskToken:
      return left ** right;
    default:
      return NOT_LITERAL;
  }
}

function arrayLiteral(expr: ts.ArrayLiteralExpression): LiteralValue[] | typeof NOT_LITERAL {
  const values: LiteralValue[] = [];
  for (const element of expr.elements) {
    const value = literalValue(element);
    if (value === NOT_LITERAL) return NOT_LITERAL;
    values.push(value);
  }
  return values;
}

function objectLiteral(expr: ts.ObjectLiteralExpression): Record<string, LiteralValue> | typeof NOT_LITERAL {
  const result: Record<string, LiteralValue> = {};
  for (const member of expr.properties) {
    const key = propertyNameOf(member);
    if (key === undefined || !ts.isPropertyAssignment(member)) return NOT_LITERAL;
    const value = literalValue(member.initializer);
    if (value === NOT_LITERAL) return NOT_LITERAL;
    result[key] = value;
  }
  return result;
}
