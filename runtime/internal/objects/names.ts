import { InvalidArgument } from "./errors.ts";

/** S3's limit on a key, which every provider can then honour. */
export const maxNameBytes = 1024;

// C0 and C1 controls (NUL, newline, escape, ...) and lone surrogates, which have no UTF-8 form.
const forbiddenCharacter = /[\u0000-\u001f\u007f-\u009f\\]|\p{Cs}/u; // eslint-disable-line no-control-regex

/**
 * Throws InvalidArgument unless `name` is a safe object name: 1 to 1024 bytes of UTF-8, no
 * control character or backslash, not absolute, and no empty, "." or ".." segment. These are
 * the names that mean the same on every store and can never point outside a bucket when a
 * provider maps them to paths. HTTP decodes a path once, so `%2e%2e%2f` arrives here as
 * `../` and is refused; a double-encoded `%252e` arrives as the literal `%2e`, a harmless name.
 */
export function checkObjectName(name: unknown): asserts name is string {
  if (typeof name !== "string" || name === "") throw new InvalidArgument("an object name must be a non-empty string");
  const problem = nameProblem(name);
  if (problem) throw new InvalidArgument(`invalid object name ${JSON.stringify(name.slice(0, 100))}: ${problem}`);
}

function nameProblem(name: string): string | null {
  if (Buffer.byteLength(name, "utf8") > maxNameBytes) return `longer than ${maxNameBytes} bytes`;
  const bad = forbiddenCharacter.exec(name);
  if (bad) return bad[0] === "\\" ? "backslashes are not allowed" : "control characters are not allowed";
  if (name.startsWith("/")) return "it must not start with /";
  for (const segment of name.split("/")) {
    if (segment === "") return "empty segments (// or a trailing /) are not allowed";
    if (segment === "." || segment === "..") return `"${segment}" segments are not allowed`;
  }
  return null;
}

/** A list prefix is a name's beginning, so it may end with "/", but it obeys the other rules. */
export function checkListPrefix(prefix: unknown): asserts prefix is string | undefined {
  if (prefix === undefined || prefix === "") return;
  if (typeof prefix !== "string") throw new InvalidArgument("a list prefix must be a string");
  if (Buffer.byteLength(prefix, "utf8") > maxNameBytes || forbiddenCharacter.test(prefix)) {
    throw new InvalidArgument(`invalid list prefix ${JSON.stringify(prefix.slice(0, 100))}`);
  }
}

/**
 * Bucket names: lower-case letters, digits and "-", starting with a letter, at most 63
 * characters. They become a folder (local) or part of an S3 bucket name, so they are
 * kept to what both accept. The parser and the Bucket constructor both apply this.
 */
export const bucketNamePattern = /^[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function bucketNameProblem(name: string): string | null {
  return bucketNamePattern.test(name)
    ? null
    : `invalid bucket name "${name}": use lower-case letters, digits and "-", starting with a letter and not ending with "-", at most 63 characters`;
}
