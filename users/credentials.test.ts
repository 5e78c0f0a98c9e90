import { describe, expect, test, vi } from "vitest";
import { users } from "~encore/clients";
import { create } from "./create";
import { verifyCredentials } from "./credentials";
import { db } from "./db";
import { userExists } from "./exists";
import { passwords } from "../passwords/passwords";

describe("verifyCredentials (internal)", () => {
  test("the right password gives the account, whatever the case of the email given", async () => {
    const ada = await create({ email: "Ada@Example.com", name: "Ada", age: 36, password: "analytical engine" });
    for (const email of ["Ada@Example.com", "ada@example.com"]) {
      expect(await verifyCredentials({ email, password: "analytical engine" })).toEqual({
        user: { userID: ada.id, email: "Ada@Example.com", credentialsVersion: 0 },
      });
    }
  });

  test("a wrong password and an unknown email give the same answer: no user", async () => {
    await create({ email: "babbage@example.com", name: "Charles", age: 79, password: "difference engine" });
    expect(await verifyCredentials({ email: "babbage@example.com", password: "Difference engine" })).toEqual({ user: null });
    expect(await verifyCredentials({ email: "nobody@example.com", password: "difference engine" })).toEqual({ user: null });
  });

  test("an unknown email costs the same scrypt work as a known one: it is checked against the dummy hash", async () => {
    // Timing is not asserted (it would be flaky); what makes it equal is that both paths run
    // the same verification with the same parameters. The spy watches, it replaces nothing.
    const verify = vi.spyOn(passwords, "verify");
    try {
      await create({ email: "known@example.com", name: "Known", age: 40, password: "known password" });
      await verifyCredentials({ email: "known@example.com", password: "a wrong guess" });
      await verifyCredentials({ email: "unknown@example.com", password: "a wrong guess" });
      expect(verify).toHaveBeenCalledTimes(2);
      const [known, unknown] = verify.mock.calls.map(([, stored]) => stored);
      expect(unknown).toBe(passwords.unknownUserHash);
      expect(unknown!.split("$").slice(0, 4)).toEqual(known!.split("$").slice(0, 4)); // same N, r, p
    } finally {
      verify.mockRestore();
    }
  });

  test("is callable from other services through ~encore/clients, with the same answers", async () => {
    const user = await create({ email: "client@example.com", name: "Client", age: 20, password: "through the client" });
    expect(await users.verifyCredentials({ email: "client@example.com", password: "through the client" })).toEqual({
      user: { userID: user.id, email: "client@example.com", credentialsVersion: 0 },
    });
    expect(await users.verifyCredentials({ email: "client@example.com", password: "not it" })).toEqual({ user: null });
  });
});

describe("userExists (internal)", () => {
  test("an account exists until its row is deleted", async () => {
    const user = await create({ email: "deleted@example.com", name: "Soon gone", age: 50, password: "going away" });
    expect(await userExists({ id: user.id })).toEqual({ exists: true });
    await db.exec`DELETE FROM users WHERE id = ${user.id}::uuid`;
    expect(await users.userExists({ id: user.id })).toEqual({ exists: false });
  });

  test.each(["00000000-0000-4000-8000-000000000000", "not-a-uuid", "", "1 OR 1=1"])(
    "an id of no account (%j) does not exist, and is no error",
    async (id) => {
      expect(await userExists({ id })).toEqual({ exists: false });
    },
  );
});
