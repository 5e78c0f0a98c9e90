import type { KeywordDefinition, SchemaValidateFunction } from "ajv";
import { isDecimal } from "../decimal/brand.ts";
import { parseDecimal } from "../decimal/parse.ts";

/**
 * `"x-encore-type"` marks dates and decimals for the runtime's revivers and generators. A
 * decimal is checked here: its text must be one Encore's Decimal reads (a JSON number is
 * refused by the schema's `type: "string"`, as Encore refuses one).
 */
const checkEncoreType: SchemaValidateFunction = (kind: string, data: unknown): boolean => {
  if (kind !== "decimal" || typeof data !== "string" || "value" in parseDecimal(data)) return true;
  // Ajv adds where the value sits (instancePath) to an error that leaves it out.
  checkEncoreType.errors = [{ keyword: "x-encore-type", message: "must be a decimal", params: { type: kind } }];
  return false;
};

export const encoreTypeKeyword: KeywordDefinition = { keyword: "x-encore-type", schemaType: "string", errors: true, validate: checkEncoreType };

/** For values app code returns (auth data): a Decimal field holds a Decimal. */
export const decimalValueKeyword: KeywordDefinition = {
  keyword: "x-encore-decimal-value",
  schemaType: "boolean",
  validate: (_: boolean, data: unknown) => isDecimal(data),
};
