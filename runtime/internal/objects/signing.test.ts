import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { parseConfig } from "../config/config.ts";
import { signingKey } from "./signing-key.ts";
import { UrlSigner } from "./signing.ts";

describe("signed URLs", () => {
  let now = Date.UTC(2030, 0, 1);
  const signer = new UrlSigner(randomBytes(32), () => now);

  test("a signature is valid for its method, bucket, name and expiry, until the expiry passes", () => {
    const { expires, signature } = signer.sign("GET", "docs", "a/b.pdf", 60);
    expect(expires).toBe(now / 1000 + 60);
    expect(signer.verify("GET", "docs", "a/b.pdf", String(expires), signature)).toBe("valid");
    now += 59_999;
    expect(signer.verify("GET", "docs", "a/b.pdf", String(expires), signature)).toBe("valid");
    now += 1;
    expect(signer.verify("GET", "docs", "a/b.pdf", String(expires), signature)).toBe("expired");
  });

  test("changing any signed part, or the signature, makes it invalid", () => {
    const { expires, signature } = signer.sign("PUT", "docs", "a/b.pdf", 600);
    const e = String(expires);
    expect(signer.verify("GET", "docs", "a/b.pdf", e, signature)).toBe("invalid");
    expect(signer.verify("PUT", "docz", "a/b.pdf", e, signature)).toBe("invalid");
    expect(signer.verify("PUT", "docs", "a/b.pdF", e, signature)).toBe("invalid");
    expect(signer.verify("PUT", "docs", "a/b.pdf", String(expires + 1), signature)).toBe("invalid");
    expect(signer.verify("PUT", "docs", "a/b.pdf", `0${e}`, signature)).toBe("invalid");
    const flipped = (signature[0] === "A" ? "B" : "A") + signature.slice(1);
    expect(signer.verify("PUT", "docs", "a/b.pdf", e, flipped)).toBe("invalid");
    expect(signer.verify("PUT", "docs", "a/b.pdf", e, `${signature}=`)).toBe("invalid");
    expect(signer.verify("PUT", "docs", "a/b.pdf", e, "")).toBe("invalid");
    expect(new UrlSigner(randomBytes(32), () => now).verify("PUT", "docs", "a/b.pdf", e, signature)).toBe("invalid");
  });
});

describe("the signing key", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "signing-key-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("OBJECTS_SIGNING_KEY is used when set", () => {
    const cfg = parseConfig({ OBJECTS_SIGNING_KEY: "s".repeat(40), NODE_ENV: "production" }, "/app");
    expect(signingKey(cfg, dir).key.toString()).toBe("s".repeat(40));
  });

  test("production without OBJECTS_SIGNING_KEY fails, naming the variable", () => {
    const cfg = parseConfig({ NODE_ENV: "production" }, "/app");
    expect(() => signingKey(cfg, dir)).toThrow(/^invalid configuration: OBJECTS_SIGNING_KEY must be set in production/);
  });

  test("development generates one key, kept in .signing-key (mode 0600) and reused", () => {
    const cfg = parseConfig({}, "/app");
    const first = signingKey(cfg, path.join(dir, "objects"));
    const file = path.join(dir, "objects", ".signing-key");
    expect(first.generatedAt).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8")).toBe(first.key.toString());
    const second = signingKey(cfg, path.join(dir, "objects"));
    expect(second).toEqual({ key: first.key });
  });
});
