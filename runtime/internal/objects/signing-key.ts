import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ConfigError, type RuntimeConfig } from "../config/mod.ts";

export interface KeySource {
  readonly key: Buffer;
  /** Set when a key was generated and written, so the caller can warn. */
  readonly generatedAt?: string;
}

/**
 * The key that signs the local provider's URLs: OBJECTS_SIGNING_KEY when set. Otherwise
 * in development one is generated once and kept in <DATA_DIR>/objects/.signing-key (mode
 * 0600), so URLs survive a restart.
 * Production refuses to start without it: a generated key would differ on every machine
 * behind a load balancer, and URLs signed by one would be refused by the others.
 */
export function signingKey(cfg: Pick<RuntimeConfig, "objects" | "environmentType">, root: string): KeySource {
  if (cfg.objects.signingKey) return { key: Buffer.from(cfg.objects.signingKey, "utf8") };
  if (cfg.environmentType === "production") {
    throw new ConfigError(
      "OBJECTS_SIGNING_KEY",
      "must be set in production (at least 32 characters, e.g. openssl rand -base64 32): it signs object URLs and must be the same on every instance",
    );
  }
  const file = path.join(root, ".signing-key");
  const existing = readKey(file);
  if (existing) return { key: existing };
  mkdirSync(root, { recursive: true });
  try {
    // "wx": when two processes start at once, one writes the key and the other reads it.
    writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    return { key: readKey(file) ?? failUnreadable(file) };
  }
  return { key: readKey(file)!, generatedAt: file };
}

function readKey(file: string): Buffer | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8").trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  return text.length >= 32 ? Buffer.from(text, "utf8") : undefined;
}

function failUnreadable(file: string): never {
  throw new Error(`${file} holds no usable signing key (fewer than 32 characters): delete it to have a new one generated`);
}
