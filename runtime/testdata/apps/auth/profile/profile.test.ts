import { profile } from "~encore/clients";
import { describe, expect, test } from "vitest";
import { me } from "./profile";

const alice = { userID: "alice", role: "member" as const };
const admin = { userID: "admin", role: "admin" as const };

describe("endpoints behind auth", () => {
  test("me answers with the caller's auth data", async () => {
    expect(await profile.me({ authData: alice })).toEqual({ userID: "alice", role: "member" });
  });

  test("me without any caller is unauthenticated", async () => {
    await expect(me()).rejects.toMatchObject({ code: "unauthenticated" });
  });

  test("admin stats are refused to a member and given to an admin", async () => {
    await expect(profile.adminStats({ authData: alice })).rejects.toMatchObject({ code: "permission_denied" });
    expect(await profile.adminStats({ authData: admin })).toEqual({ users: 2 });
  });

  test("status is open to anyone and names a caller it knows", async () => {
    expect(await profile.status()).toEqual({ ok: true });
    expect(await profile.status({ authData: alice })).toEqual({ ok: true, caller: "alice" });
  });
});
