import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { resolveJwtKey } from "./config";

const dir = mkdtempSync(path.join(tmpdir(), "jwt-secret-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const text = (key: Uint8Array) => new TextDecoder().decode(key);

describe("the JWT key", () => {
  test("JWTSecret is used as it is when set, in any environment", () => {
    const secret = "s".repeat(40);
    for (const environment of ["production", "development"] as const) {
      const source = resolveJwtKey({ secret, environment, devSecretFile: path.join(dir, "unused") });
      expect(text(source.key)).toBe(secret);
      expect(source.devSecretFile).toBeUndefined();
    }
  });

  test("a JWTSecret under 32 bytes is an error naming it", () => {
    expect(() => resolveJwtKey({ secret: "too short", environment: "production", devSecretFile: "x" })).toThrow(
      "invalid configuration: JWTSecret must be at least 32 bytes, got 9",
    );
  });

  test.each(["production", "ephemeral"] as const)("without JWTSecret, %s refuses to start, naming it", (environment) => {
    for (const secret of [undefined, ""]) {
      expect(() => resolveJwtKey({ secret, environment, devSecretFile: path.join(dir, environment) })).toThrow(
        new RegExp(`^invalid configuration: JWTSecret must be set in ${environment}`),
      );
    }
  });

  test("without JWTSecret, development generates a secret once (mode 0600) and reuses it", () => {
    const devSecretFile = path.join(dir, "dev", "auth", "jwt-dev-secret");
    const first = resolveJwtKey({ secret: undefined, environment: "development", devSecretFile });
    expect(first).toMatchObject({ devSecretFile, generated: true });
    expect(first.key.length).toBeGreaterThanOrEqual(32);
    expect(statSync(devSecretFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(devSecretFile, "utf8")).toBe(text(first.key));

    const second = resolveJwtKey({ secret: "", environment: "development", devSecretFile });
    expect(second).toEqual({ key: first.key, devSecretFile, generated: false });
  });

  test("a development secret file that is too short is an error saying to delete it", () => {
    const devSecretFile = path.join(dir, "short-secret");
    writeFileSync(devSecretFile, "abc");
    expect(() => resolveJwtKey({ secret: undefined, environment: "test", devSecretFile })).toThrow(/delete the file/);
  });
});
