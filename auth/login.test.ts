import { describe, expect, test } from "vitest";
import { users } from "~encore/clients";
import { auth } from "./gateway";
import { login } from "./login";

// Each test uses its own emails and client addresses: the limiters live as long as the module.
async function signUp(email: string, password = "the right password"): Promise<string> {
  return (await users.create({ email, name: "Tester", age: 25, password })).id;
}

const attempt = (email: string, password: string, forwardedFor: string) => login({ email, password, forwardedFor });

const unauthenticated = { code: "unauthenticated", message: "invalid email or password" };
const limited = {
  code: "resource_exhausted",
  message: expect.stringMatching(/^too many login attempts; try again in \d+ seconds$/),
};

describe("POST /auth/login", () => {
  test("the right email and password give a token, good for an hour, that the auth handler accepts", async () => {
    const id = await signUp("happy@example.com");
    const before = Date.now();
    const { token, expiresAt } = await attempt("happy@example.com", "the right password", "198.51.100.1");
    expect(expiresAt.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3600_000);
    expect(expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 3600_000);
    expect(await auth({ authorization: `Bearer ${token}` })).toEqual({ userID: id, email: "happy@example.com" });
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

  test("after 5 failures for one email, in any case, the 6th attempt is resource_exhausted, even if right", async () => {
    await signUp("target@example.com");
    for (let i = 0; i < 5; i++) {
      const email = i % 2 ? "TARGET@example.com" : "target@example.com";
      // A new address each time: it is the email's count that stops the 6th.
      await expect(attempt(email, `guess ${i}`, `203.0.113.${i}`)).rejects.toMatchObject(unauthenticated);
    }
    const sixth = attempt("target@example.com", "the right password", "203.0.113.99");
    await expect(sixth).rejects.toMatchObject(limited);
    await expect(sixth).rejects.toMatchObject({ message: expect.stringMatching(/try again in (8\d\d|900) seconds/) });
    // Other accounts are not affected.
    await signUp("bystander@example.com");
    await expect(attempt("bystander@example.com", "the right password", "203.0.113.100")).resolves.toHaveProperty("token");
  });

  test("a successful login clears that email's failures", async () => {
    await signUp("forgetful@example.com");
    const tryWith = (password: string, n: number) => attempt("forgetful@example.com", password, `203.0.113.${150 + n}`);
    for (let i = 0; i < 4; i++) await expect(tryWith("wrong", i)).rejects.toMatchObject(unauthenticated);
    await expect(tryWith("the right password", 4)).resolves.toHaveProperty("token");
    for (let i = 5; i < 10; i++) await expect(tryWith("wrong", i)).rejects.toMatchObject(unauthenticated); // 5 more allowed
    await expect(tryWith("wrong", 10)).rejects.toMatchObject(limited);
  });

  test("after 20 attempts from one address, across different emails, the 21st is resource_exhausted", async () => {
    const address = "192.0.2.200";
    for (let i = 0; i < 20; i++) {
      await expect(attempt(`spray${i}@example.com`, "Password1", address)).rejects.toMatchObject(unauthenticated);
    }
    await expect(attempt("spray20@example.com", "Password1", ` ${address} `)).rejects.toMatchObject(limited);
    // Another address may still try the same email.
    await expect(attempt("spray20@example.com", "Password1", "192.0.2.201")).rejects.toMatchObject(unauthenticated);
  });
});
