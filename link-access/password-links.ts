import { APIError } from "encore.dev/api";
import { addressKey } from "../limits/address";
import { linkPasswordIsRight } from "./password-checks";

// What a password link hides, its target and its audience (stats, analytics), is shown
// only to the members of its workspace signed in (each surface asks the workspaces service
// itself, before this) or to whoever gives its password, as GET /:code shows it.

/** GET /:code's answer to a request without the password, which every other surface repeats. */
export const needsPasswordMessage = "this link needs a password: send it in the X-Link-Password header";
export const wrongPasswordMessage = "wrong password";

/** Who asks, as a typed endpoint receives it. */
export interface LinkCaller {
  /** The signed-in user, if any. */
  readonly userID?: string;
  /** X-Link-Password, as received. */
  readonly password?: string;
  /** X-Forwarded-For as the runtime sets it: the client's address, for the limit on guessing. */
  readonly forwardedFor?: string;
}

/** A link's facts that decide who may see what it hides. */
export interface GuardedLink {
  readonly passwordHash: string | null;
}

/**
 * Returns when `caller` may see what `code`'s link hides: it has no password, or the
 * caller gives it. Otherwise throws 401 unauthenticated with
 * GET /:code's messages (no password given, or a wrong one), 429 while the caller's
 * guesses on this link must wait, 503 when too many passwords are being checked.
 */
export async function requireLinkPassword(code: string, link: GuardedLink, caller: LinkCaller): Promise<void> {
  if (link.passwordHash === null) return;
  if (!caller.password) throw APIError.unauthenticated(needsPasswordMessage);
  const right = await linkPasswordIsRight(addressKey(caller.forwardedFor), code, link.passwordHash, passwordOfHeader(caller.password));
  if (!right) throw APIError.unauthenticated(wrongPasswordMessage);
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The password an X-Link-Password header holds, for every surface that takes it (GET
 * /:code, stats, analytics): Node reads a header's bytes as Latin-1, and a client sends a
 * password's UTF-8 bytes, so a value that is valid UTF-8 read that way is read again as
 * UTF-8. A value already decoded (a character past U+00FF), or not UTF-8, is taken as it is.
 */
export function passwordOfHeader(value: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(value) || /[^\x00-\xff]/.test(value)) return value;
  try {
    return utf8.decode(Buffer.from(value, "latin1"));
  } catch {
    return value;
  }
}
