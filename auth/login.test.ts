import { describe, expect, test, vi } from "vitest";
import { users } from "~encore/clients";
import { auth } from "./gateway";
import { login } from "./login";

vi.hoisted(() => {
  process.env.LOGIN_FAILURES_PER_ADDRESS = "20"; // read once, when login.ts loads
});

// Each test uses its own emails and client addresses: the limiters live as long as the module.
async function signUp(email: string, password = "the right password"): Promise<string> {
  return (await users.create({ email, name: "Tester", age: 25, password })).id;
}

const attempt = (email: string, password: string, forwardedFor: string) => login({ email, password, forwardedFor });

const unauthenticated = { code: "unauthenticated", message: "invalid email or password" };
const limited = {
  code: "resource_exhausted",
  message: expect.stringMatching(/^too many failed login attempts; try again in \d+ seconds$/),
};

describe("POST /auth/login", () => {
  test("the right email and password give a token, good for an hour, that the auth handler accepts", async () => {
    const id = await signUp("happy@example.com");
    const before = Date.now();
    const { token, expiresAt } = await attempt("happy@example.com", "the right password", "198.51.100.1");
    expect(expiresAt.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3600_000);
    expect(expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 3600_000);
    expect(await auth({ authorization: `Bearer ${token}` })).toMatchObject({ userID: id, email: "happy@example.com", admin: false, credential: "login" });
  });

  test("a disabled account: the right password is 403 account disabled, a wrong one the usual 401; neither counts as a failure", async () => {
    const id = await signUp("disabled@example.com");
    await users.setAccountDisabled({ id, disabled: true });
    for (let i = 0; i < 6; i++) {
      await expect(attempt("disabled@example.com", "the right password", "198.51.100.9")).rejects.toMatchObject({
        code: "permission_denied",
        message: "account disabled",
      });
    }
    await expect(attempt("disabled@example.com", "a wrong password", "198.51.100.9")).rejects.toMatchObject(unauthenticated);
    await users.setAccountDisabled({ id, disabled: false });
    await expect(attempt("disabled@example.com", "the right password", "198.51.100.9")).resolves.toHaveProperty("token");
  });

  test("the email matches in any case and with surrounding spaces", async () => {
    const id = await signUp("Mixed.Case@example.com");
    const { token } = await attempt("  mixed.case@EXAMPLE.com ", "the right password", "198.51.100.2");
    expect((await auth({ authorization: `Bearer ${token}` }))?.userID).toBe(id);
  });

  test("a wrong password and an unknown email fail alike: the same code and message", async () => {
    await signUp("known@example.com");
    await expect(attempt("known@example.com", "a wrong password", "198.51.100.3")).rejects.toMatchObject(unauthenticated);
    await expect(attempt("unknown@example.com", "a wrong password", "198.51.100.3")).rejects.toMatchObject(unauthenticated);
  });

  test("after 4 failures of one address and email, in any case, the next attempt waits, even if right", async () => {
    await signUp("target@example.com");
    for (let i = 0; i < 4; i++) {
      const email = i % 2 ? "TARGET@example.com" : "target@example.com";
      await expect(attempt(email, `guess ${i}`, "203.0.113.1")).rejects.toMatchObject(unauthenticated);
    }
    const fifth = attempt("target@example.com", "the right password", "203.0.113.1");
    await expect(fifth).rejects.toMatchObject({ ...limited, details: { retryAfterSeconds: 1 } });
    // The owner elsewhere, and other accounts, are not affected.
    await expect(attempt("target@example.com", "the right password", "203.0.113.2")).resolves.toHaveProperty("token");
    await signUp("bystander@example.com");
    await expect(attempt("bystander@example.com", "the right password", "203.0.113.1")).resolves.toHaveProperty("token");
  });

  test("a successful login clears the pair's failures", async () => {
    await signUp("forgetful@example.com");
    const tryWith = (password: string) => attempt("forgetful@example.com", password, "203.0.113.150");
    for (let i = 0; i < 3; i++) await expect(tryWith("wrong")).rejects.toMatchObject(unauthenticated);
    await expect(tryWith("the right password")).resolves.toHaveProperty("token");
    for (let i = 0; i < 4; i++) await expect(tryWith("wrong")).rejects.toMatchObject(unauthenticated); // 4 free again
    await expect(tryWith("wrong")).rejects.toMatchObject(limited);
  });

  test("after 20 failures from one address (LOGIN_FAILURES_PER_ADDRESS), across different emails, the 21st is resource_exhausted", async () => {
    const address = "192.0.2.200";
    for (let i = 0; i < 20; i++) {
      await expect(attempt(`spray${i}@example.com`, "Password1", address)).rejects.toMatchObject(unauthenticated);
    }
    await expect(attempt("spray20@example.com", "Password1", ` ${address} `)).rejects.toMatchObject(limited);
    // Another address may still try the same email.
    await expect(attempt("spray20@example.com", "Password1", "192.0.2.201")).rejects.toMatchObject(unauthenticated);
  });
});

describe("a pair's wait (failureWaitSeconds)", () => {
  test("nothing for 4 failures, then doubling from 1 s, never past 15 minutes", async () => {
    const { failureWaitSeconds } = await import("../limits/consecutive-failures");
    expect([0, 1, 3, 4, 5, 6, 13, 14, 100].map(failureWaitSeconds)).toEqual([0, 0, 0, 1, 2, 4, 512, 900, 900]);
  });
});
