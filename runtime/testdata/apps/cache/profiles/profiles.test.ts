import { describe, expect, test } from "vitest";
import { create, forget, get, note, put, rename } from "./profiles";

describe("profiles", () => {
  test("a stored profile is read back; a missing one is not_found", async () => {
    await put({ org: "acme", id: "1", name: "Ada", email: "ada@acme.test" });
    expect(await get({ org: "acme", id: "1" })).toEqual({ name: "Ada", email: "ada@acme.test" });
    await expect(get({ org: "acme", id: "2" })).rejects.toMatchObject({ code: "not_found" });
  });

  test("create refuses a profile that is cached, with CacheKeyExists's message", async () => {
    await create({ org: "acme", id: "7", name: "Grace", email: "grace@acme.test" });
    await expect(create({ org: "acme", id: "7", name: "Other", email: "o@acme.test" })).rejects.toMatchObject({
      code: "already_exists",
      message: 'cache key "profile/acme/7" already exists',
    });
  });

  test("rename replaces a cached profile; forget deletes it, after which rename is not_found", async () => {
    await put({ org: "acme", id: "3", name: "Alan", email: "alan@acme.test" });
    expect(await rename({ org: "acme", id: "3", name: "A. Turing" })).toEqual({ name: "A. Turing", email: "alan@acme.test" });
    expect(await forget({ org: "acme", id: "3" })).toEqual({ deleted: 1 });
    expect(await forget({ org: "acme", id: "3" })).toEqual({ deleted: 0 });
    await expect(rename({ org: "acme", id: "3", name: "x" })).rejects.toMatchObject({ code: "not_found" });
  });

  test("notes grow with append", async () => {
    expect(await note({ user: "u1", text: "hello" })).toEqual({ length: 5, note: "hello" });
    expect(await note({ user: "u1", text: ", world" })).toEqual({ length: 12, note: "hello, world" });
  });
});
