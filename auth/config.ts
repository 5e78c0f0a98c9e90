// The auth service's configuration, resolved once at start: the key that signs and checks
// login tokens, and the emails of the admin accounts.
import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { appMeta, type EnvironmentType } from "encore.dev";
import { secret } from "encore.dev/config";
import log from "encore.dev/log";

/** HS256 is only as strong as its key: at least 256 bits, as RFC 7518 (3.2) asks. */
export const minSecretBytes = 32;

const jwtSecret = secret("JWTSecret");

export interface JwtKeySource {
  readonly key: Uint8Array;
  /** Set when no JWTSecret was given and the development secret in this file is used instead. */
  readonly devSecretFile?: string;
  /** Whether that file was created just now. */
  readonly generated?: boolean;
}

/**
 * The JWT key: JWTSecret when set. Otherwise, in development and tests, a random secret
 * generated once into `devSecretFile` (mode 0600), so tokens survive a restart. Any
 * other environment (production, ephemeral) refuses to start without JWTSecret: a
 * generated secret would differ between instances, each refusing the others' tokens.
 */
export function resolveJwtKey(opts: {
  /** JWTSecret's value; undefined or "" when it is not set. */
  secret: string | undefined;
  environment: EnvironmentType;
  devSecretFile: string;
}): JwtKeySource {
  if (opts.secret) return { key: keyOf(opts.secret, "JWTSecret") };
  if (opts.environment !== "development" && opts.environment !== "test") {
    throw new Error(
      `invalid configuration: JWTSecret must be set in ${opts.environment} (a random secret of at least ` +
        `${minSecretBytes} bytes, e.g. openssl rand -base64 48): it signs login tokens and must be the same on every instance`,
    );
  }
  const existing = readDevSecret(opts.devSecretFile);
  if (existing) return { key: existing, devSecretFile: opts.devSecretFile, generated: false };
  mkdirSync(path.dirname(opts.devSecretFile), { recursive: true, mode: 0o700 });
  // Written whole under a temporary name, then linked into place: link fails when the file
  // exists, so of two processes starting at once one creates it and the other reads it,
  // and nobody ever reads a half-written secret.
  const temp = `${opts.devSecretFile}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(temp, randomBytes(48).toString("base64url"), { mode: 0o600, flag: "wx" });
  try {
    linkSync(temp, opts.devSecretFile);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    return { key: readDevSecret(opts.devSecretFile)!, devSecretFile: opts.devSecretFile, generated: false };
  } finally {
    unlinkSync(temp);
  }
  return { key: readDevSecret(opts.devSecretFile)!, devSecretFile: opts.devSecretFile, generated: true };
}

function keyOf(value: string, source: string): Uint8Array {
  const key = new TextEncoder().encode(value);
  if (key.length < minSecretBytes) {
    throw new Error(`invalid configuration: ${source} must be at least ${minSecretBytes} bytes, got ${key.length}`);
  }
  return key;
}

function readDevSecret(file: string): Uint8Array | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8").trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  return keyOf(text, `the development JWT secret in ${file} (delete the file to have a new one generated)`);
}

/** Unset reads as undefined: a missing secret reads as "" locally, and throws in production. */
function readJwtSecret(): string | undefined {
  try {
    return jwtSecret() || undefined;
  } catch {
    return undefined; // the only failure here is "not set", which resolveJwtKey reports by name
  }
}

// The self-host runtime keeps local state in DATA_DIR (each test file has its own);
// otherwise .data under the working directory, the app root, which git ignores.
const devSecretFile = path.resolve(process.env.DATA_DIR?.trim() || ".data", "auth", "jwt-dev-secret");

const source = resolveJwtKey({ secret: readJwtSecret(), environment: appMeta().environment.type, devSecretFile });
if (source.devSecretFile) {
  log.warn(
    `JWTSecret is not set: login tokens are signed with a development secret ` +
      `${source.generated ? "generated into" : "read from"} ${source.devSecretFile}; ` +
      "set JWTSecret for any shared or production deployment",
  );
}

/** The HS256 key of every token this app issues and accepts. */
export const jwtKey: Uint8Array = source.key;
