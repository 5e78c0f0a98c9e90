import { describe, expect, test } from "vitest";
import { add, count, list } from "./user";

describe("user", () => {
  test("a user added is listed, and counted", async () => {
    const added = await add({ name: "Ada Lovelace", email: "ada@example.com" });
    expect((await list()).users).toEqual([{ id: added.id, name: "Ada Lovelace", email: "ada@example.com" }]);
    // node-postgres gives COUNT(*), a bigint, as a string; the endpoint returns it so.
    expect(await count()).toEqual({ count: "1" });
  });
});
