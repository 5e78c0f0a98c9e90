import { describe, expect, test } from "vitest";
import { auth } from "./auth";
import { login, prefs } from "./session";

describe("session cookies", () => {
  test("login answers the session cookie with its options", async () => {
    const res = await login({ user: "ada" });
    expect(res.user).toBe("ada");
    expect(res.session).toMatchObject({ value: "s-ada", httpOnly: true, path: "/", maxAge: 3600 });
  });

  test("prefs reads the cookies' values", async () => {
    expect(await prefs({ theme: { value: "dark" }, visits: { value: 3 } })).toEqual({ theme: "dark", visits: 3 });
    expect(await prefs({ theme: { value: "light" } })).toEqual({ theme: "light", visits: 0 });
  });

  test("the auth handler knows the session cookie's user", async () => {
    expect(await auth({ session: { value: "s-ada" } })).toEqual({ userID: "ada" });
    await expect(auth({ session: { value: "forged" } })).rejects.toMatchObject({ code: "unauthenticated" });
  });
});
