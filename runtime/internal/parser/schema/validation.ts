import ts from "typescript";
import type { JSONSchema } from "../../meta/types.ts";
import { VALIDATE_KEY } from "../../validation/encore-messages.ts";
import { sdkExportOfSymbol } from "../sdk/sdk-symbols.ts";

/**
 * One marker from encore.dev/validate, e.g. `MaxLen<10>`: an object type whose only
 * property is the unique-symbol key `[__validate]` holding `{ maxLen: 10 }`.
 */
export interface Constraint {
  /** The key inside the marker: minValue, maxValue, minLen, maxLen, matchesRegexp, startsWith, endsWith, isEmail, isURL. */
  readonly kind: string;
  readonly value: string | number | boolean;
  /** How the user wrote it, for messages: "MaxLen<10>". */
  readonly label: string;
}

/** The constraint a marker type carries, or undefined when `type` is not a validation marker. */
export function constraintOf(checker: ts.TypeChecker, type: ts.Type): Constraint | undefined | string {
  if (!(type.flags & ts.TypeFlags.Object)) return undefined;
  const properties = checker.getPropertiesOfType(type);
  const only = properties[0];
  if (properties.length !== 1 || !only) return undefined;
  const origin = sdkExportOfSymbol(checker, only);
  if (!origin || !origin.module.startsWith("validate")) return undefined;

  const label = checker.typeToString(type);
  const payload = checker.getNonNullableType(checker.getTypeOfSymbol(only));
  const [entry] = checker.getPropertiesOfType(payload);
  if (!entry) return `validation marker ${label} has no value`;
  const valueType = checker.getTypeOfSymbol(entry);
  const value = literalOf(checker, valueType);
  if (value === undefined) {
    return `validation marker ${label} needs a literal argument, got "${checker.typeToString(valueType)}"`;
  }
  return { kind: entry.name, value, label };
}

function literalOf(checker: ts.TypeChecker, type: ts.Type): string | number | boolean | undefined {
  if (type.isStringLiteral() || type.isNumberLiteral()) return type.value;
  if (type.flags & ts.TypeFlags.BooleanLiteral) return checker.typeToString(type) === "true";
  return undefined;
}

/**
 * `base` with the constraints added as JSON Schema keywords; a string explains why a
 * constraint does not fit the base type.
 */
export function applyConstraints(base: JSONSchema, constraints: readonly Constraint[]): JSONSchema | string {
  const result: Record<string, unknown> = { ...base };
  const patterns: JSONSchema[] = [];
  const kindOfBase = typeof base["type"] === "string" ? base["type"] : undefined;
  for (const constraint of constraints) {
    const keyword = keywordFor(constraint.kind, kindOfBase);
    if (!keyword) {
      return `${constraint.label} does not apply to ${kindOfBase ? `a ${kindOfBase}` : "this type"}`;
    }
    const value = constraint.value;
    switch (keyword) {
      case "pattern":
        // The rule beside its pattern: Encore words each kind its own way (validation/encore-messages.ts).
        patterns.push({ pattern: patternFor(constraint.kind, String(value)), [VALIDATE_KEY]: { kind: constraint.kind, value: String(value) } });
        break;
      case "format": {
        const format = constraint.kind === "isEmail" ? "email" : "uri";
        if (result["format"] !== undefined && result["format"] !== format) {
          return `${constraint.label} conflicts with format "${String(result["format"])}"`;
        }
        result["format"] = format;
        break;
      }
      default:
        result[keyword] = value;
    }
  }
  if (patterns.length === 1) Object.assign(result, patterns[0]);
  // JSON Schema allows one `pattern` per schema; several must all match.
  if (patterns.length > 1) result["allOf"] = patterns;
  return result;
}

const KEYWORDS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  string: {
    minLen: "minLength",
    maxLen: "maxLength",
    matchesRegexp: "pattern",
    startsWith: "pattern",
    endsWith: "pattern",
    isEmail: "format",
    isURL: "format",
  },
  number: { minValue: "minimum", maxValue: "maximum" },
  array: { minLen: "minItems", maxLen: "maxItems" },
};

function keywordFor(kind: string, baseType: string | undefined): string | undefined {
  return baseType === undefined ? undefined : KEYWORDS[baseType]?.[kind];
}

function patternFor(kind: string, value: string): string {
  if (kind === "startsWith") return `^${escapeRegExp(value)}`;
  if (kind === "endsWith") return `${escapeRegExp(value)}$`;
  return value;
}

// Only syntax characters: Ajv compiles patterns with the "u" flag, where needless escapes are errors.
function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
}
