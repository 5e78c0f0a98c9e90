import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { scryptSlotsFor, threadPoolSize } from "./scrypt-slots";

/**
 * scrypt (RFC 7914) parameters for new hashes.
 * - N = 2^15, r = 8: each hash fills 128·N·r = 32 MiB of memory, which is what makes
 *   guessing on GPUs and ASICs expensive; about 50–100 ms of one core here. p = 1: one
 *   lane, since the server gains nothing from parallelism inside one hash.
 * - 16 random bytes of salt per password: equal passwords get unrelated hashes, and
 *   precomputed tables are useless.
 * - 64-byte derived key: far beyond any guessing attack, and cheap to store.
 * Stored hashes name their own parameters, so raising them later leaves existing
 * hashes verifiable.
 */
const current = { N: 2 ** 15, r: 8, p: 1 } as const;
const saltBytes = 16;
const keyBytes = 64;

/** Upper bounds for parameters read back from the database, so a corrupt row cannot ask for gigabytes. */
const maxN = 2 ** 20;
const maxR = 32;
const maxP = 16;

interface ScryptParams {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

interface ParsedHash extends ScryptParams {
  readonly salt: Buffer;
  readonly key: Buffer;
}

/** The one format: scrypt$N$r$p$salt$key, salt and key in base64. */
function format({ N, r, p, salt, key }: ParsedHash): string {
  return `scrypt$${N}$${r}$${p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

function parse(stored: string): ParsedHash {
  const parts = stored.split("$");
  const [scheme, n, r, p, salt, key] = parts;
  const N = Number(n);
  const params = { N, r: Number(r), p: Number(p) };
  const valid =
    parts.length === 6 &&
    scheme === "scrypt" &&
    Number.isInteger(N) && N > 1 && N <= maxN && (N & (N - 1)) === 0 && // scrypt requires a power of 2
    Number.isInteger(params.r) && params.r >= 1 && params.r <= maxR &&
    Number.isInteger(params.p) && params.p >= 1 && params.p <= maxP;
  const saltBuf = Buffer.from(salt ?? "", "base64");
  const keyBuf = Buffer.from(key ?? "", "base64");
  // A key that decodes to nothing would match every password: refuse it, as any short one.
  if (!valid || saltBuf.length < 8 || keyBuf.length < 16) {
    throw new Error("stored password hash is not in the scrypt$N$r$p$salt$key format");
  }
  return { ...params, salt: saltBuf, key: keyBuf };
}

function derive(password: string, salt: Buffer, length: number, { N, r, p }: ScryptParams): Promise<Buffer> {
  // OpenSSL needs 128·r·(N + p + 2) bytes; Node's default cap (32 MiB) is a little short
  // of that for N = 2^15, r = 8, so the cap is set from the parameters themselves.
  const maxmem = 128 * r * (N + p + 2);
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFC"), salt, length, { N, r, p, maxmem }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/**
 * The shares of libuv's thread pool that hashing and checking may take (scrypt-slots.ts).
 * Shared code, not a service: every process that loads it (users for accounts, url for
 * link passwords; one process or one each when deployed apart) has its own slots, which is
 * right, since each shares out its own process's thread pool.
 */
export const scryptSlots = scryptSlotsFor(threadPoolSize(process.env));

/**
 * Password hashing and checking. One object (rather than loose functions) so tests can
 * watch which hash a check ran against without replacing the check.
 */
export const passwords = {
  /**
   * A new self-describing hash of `password`, with a fresh random salt. 503 unavailable
   * at once when too many are being made (sign-ups, password changes).
   */
  async hash(password: string): Promise<string> {
    const salt = randomBytes(saltBytes);
    const key = await scryptSlots.newHashes.run(() => derive(password, salt, keyBytes, current));
    return format({ ...current, salt, key });
  },

  /**
   * Whether `password` matches `stored`; the comparison takes the same time wherever they
   * differ. 503 unavailable at once when too many are being checked (logins).
   */
  async verify(password: string, stored: string): Promise<boolean> {
    const expected = parse(stored);
    const actual = await scryptSlots.checks.run(() => derive(password, expected.salt, expected.key.length, expected));
    return timingSafeEqual(actual, expected.key);
  },

  /**
   * Checked against when no account has the email, so that answer costs the same scrypt
   * work as a wrong password and its timing does not reveal which emails exist. Built
   * from the current parameters, so it always costs what a new hash costs; its key (all
   * zeros) matches no password in practice (a 2^-512 chance), and callers ignore the result.
   */
  unknownUserHash: format({ ...current, salt: Buffer.alloc(saltBytes), key: Buffer.alloc(keyBytes) }),
};
