import { APIError, withPrivateCause } from "../errors/api-error.ts";
import { errorChain } from "./unavailable.ts";

// SQLSTATE 22021 (character_not_in_repertoire): PostgreSQL stores no U+0000 in text, and
// says so for a parameter that holds one ("invalid byte sequence for encoding UTF8: 0x00").
// A statement's own text cannot carry that byte, so the value came from the caller: JSON
// allows "\u0000" in any string, and a request field stored as it is reaches the database
// with it. 22P05 (untranslatable_character) is the same refusal for a database whose
// encoding lacks a character.
const unstorableStates = new Set(["22021", "22P05"]);

/**
 * What an unexpected error that comes from text the database cannot store is answered
 * with: 400 `invalid_argument`, as bad input, rather than a 500 that reads as a bug of the
 * service. Null for other errors.
 */
export function unstorableTextFor(err: unknown): APIError | null {
  for (const e of errorChain(err)) {
    const { code } = e as { code?: unknown };
    if (typeof code === "string" && unstorableStates.has(code)) {
      return withPrivateCause(APIError.invalidArgument("a text value holds a character the database cannot store (such as U+0000)", err as Error));
    }
  }
  return null;
}
