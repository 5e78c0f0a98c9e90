import { LinkPasswordLimits } from "../limits/link-passwords";
import { passwords } from "../passwords/passwords";
import { maxPasswordLength } from "../link-rules/passwords";

/**
 * Limits on guessing, per client address and code (limits/link-passwords.ts): one per
 * process, so a wrong password counts the same whether sent to GET /:code, its stats (the
 * url service) or its analytics (the analytics service); between processes, through Redis.
 */
const limits = new LinkPasswordLimits();

/**
 * Checks under way, by client address, code, hash and password: the same password sent
 * again by the same client while it is being checked shares that check's answer, as one
 * attempt. So a client sending the right password many times at once costs one scrypt
 * check, not a place in the server's short line of checks each, and is never refused for
 * its own repeats. Keyed by the client too, so nobody can tell from how fast their own
 * guess is answered that someone else is trying the same password.
 */
const underWay = new Map<string, Promise<boolean>>();

/**
 * Whether `password` is the password of `code`'s link, whose hash is `hash`, for the client
 * at `address` (an address key; undefined: a call without one). An attempt counts against
 * its client address and code only when the password turns out wrong; while that pair must
 * wait, 429 resource_exhausted (with retryAfterSeconds); 503 unavailable when too many
 * passwords are being checked on this server. Wherever the password differs, the answer
 * takes the same time (scrypt, then a comparison in constant time): nothing tells a close
 * guess from a far one.
 */
export function linkPasswordIsRight(address: string | undefined, code: string, hash: string, password: string): Promise<boolean> {
  const client = address ?? "unknown";
  const key = JSON.stringify([client, code, hash, password]);
  const shared = underWay.get(key);
  if (shared !== undefined) return shared;
  // Longer than any password a link can have: wrong, without the scrypt work.
  const check = limits.attempt(client, code, () => (password.length <= maxPasswordLength ? passwords.verify(password, hash) : Promise.resolve(false)));
  underWay.set(key, check);
  const forget = () => underWay.delete(key);
  check.then(forget, forget);
  return check;
}
