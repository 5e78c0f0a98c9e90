import { APIError } from "encore.dev/api";

/**
 * The checks of a profile that its type cannot express, shared by sign-up and
 * replace: a whole-number age (when given) and a name that is not blank. Returns the name trimmed,
 * as it is stored.
 */
export function checkedProfile({ name, age }: { name: string; age: number | undefined }): { name: string; age: number | null } {
  if (age !== undefined && !Number.isInteger(age)) throw APIError.invalidArgument(`age must be a whole number, got ${age}`);
  const trimmed = name.trim();
  if (trimmed === "") throw APIError.invalidArgument("name must not be blank");
  return { name: trimmed, age: age ?? null };
}
