import { describe, expect, test } from "vitest";
import { auth } from "./handler";

describe("the auth handler", () => {
  test("a demo user's bearer token identifies that user", async () => {
    expect(await auth({ authorization: "Bearer demo-token-alice" })).toEqual({ userID: "alice", role: "member" });
    expect(await auth({ authorization: "Bearer demo-token-bob" })).toEqual({ userID: "bob", role: "member" });
  });

  test.each([
    ["an unknown token", "Bearer nobody-has-this"],
    ["a token without the Bearer scheme", "demo-token-alice"],
    ["another scheme", "Basic ZGVtbzpkZW1v"],
    ["an empty header", ""],
    ["a bearer with no token", "Bearer "],
  ])("%s is unauthenticated", async (_case, authorization) => {
    await expect(auth({ authorization })).rejects.toMatchObject({ code: "unauthenticated" });
  });

  test("with AdminToken unset (it reads as empty), no token is an admin's", async () => {
    await expect(auth({ authorization: "Bearer " })).rejects.toMatchObject({ code: "unauthenticated" });
    await expect(auth({ authorization: "Bearer admin" })).rejects.toMatchObject({ code: "unauthenticated" });
  });
});
