import { describe, expect, test } from "vitest";
import { passwords } from "./passwords";

describe("password hashing", () => {
  test("a hash names scrypt and its parameters, and never contains the password", async () => {
    const stored = await passwords.hash("correct horse battery staple");
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{86}==$/);
    expect(stored).not.toContain("correct horse");
  });

  test("the same password hashes differently each time (random salt), and each hash verifies it", async () => {
    const [a, b] = await Promise.all([passwords.hash("same password"), passwords.hash("same password")]);
    expect(a).not.toBe(b);
    expect(await passwords.verify("same password", a)).toBe(true);
    expect(await passwords.verify("same password", b)).toBe(true);
  });

  test("a different password does not verify, down to case and one character", async () => {
    const stored = await passwords.hash("Tr0ub4dor&3");
    for (const wrong of ["tr0ub4dor&3", "Tr0ub4dor&", "Tr0ub4dor&33", ""]) {
      expect(await passwords.verify(wrong, stored)).toBe(false);
    }
  });

  test("a hash with other parameters (say, from before they were raised) still verifies", async () => {
    // Made with N = 2^10, r = 8, p = 1 and this salt: what an older deployment might have stored.
    const { scryptSync } = await import("node:crypto");
    const salt = Buffer.alloc(16, 7);
    const key = scryptSync("old password", salt, 64, { N: 1024, r: 8, p: 1 });
    const stored = `scrypt$1024$8$1$${salt.toString("base64")}$${key.toString("base64")}`;
    expect(await passwords.verify("old password", stored)).toBe(true);
    expect(await passwords.verify("new password", stored)).toBe(false);
  });

  test("the unknown-user hash has the current parameters and matches no password", async () => {
    const real = await passwords.hash("whatever");
    const params = (s: string) => s.split("$").slice(0, 4).join("$");
    expect(params(passwords.unknownUserHash)).toBe(params(real));
    expect(passwords.unknownUserHash.length).toBe(real.length); // same salt and key sizes: the same work
    expect(await passwords.verify("whatever", passwords.unknownUserHash)).toBe(false);
  });

  test.each([
    ["another scheme", "bcrypt$2b$10$abc"],
    ["N not a power of two", `scrypt$1000$8$1$${"A".repeat(22)}==$${"A".repeat(86)}==`],
    ["N far too large", `scrypt$${2 ** 24}$8$1$${"A".repeat(22)}==$${"A".repeat(86)}==`],
    ["an empty key, which would match anything", `scrypt$1024$8$1$${"A".repeat(22)}==$`],
    ["missing parts", "scrypt$1024$8"],
  ])("a stored hash that is malformed (%s) is an error, never a match", async (_why, stored) => {
    await expect(passwords.verify("anything", stored)).rejects.toThrow(/not in the scrypt\$N\$r\$p\$salt\$key format/);
  });
});
