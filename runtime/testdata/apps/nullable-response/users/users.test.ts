import { describe, expect, test } from "vitest";
import { create, find } from "./users";

describe("users", () => {
  test("a user created without a nickname is found with a null one, as its row has it", async () => {
    const created = await create({ name: "Charles Babbage" });
    // The column is NULL, and the answer says so as the row has it.
    expect(created).toEqual({ id: created.id, name: "Charles Babbage", nickname: null });
    expect(await find({ id: created.id })).toEqual({ user: { id: created.id, name: "Charles Babbage", nickname: null } });
  });

  test("a user created with a nickname is found with it", async () => {
    const created = await create({ name: "Ada Lovelace", nickname: "ada" });
    expect(await find({ id: created.id })).toEqual({ user: { id: created.id, name: "Ada Lovelace", nickname: "ada" } });
  });

  test("an unknown id finds a null user", async () => {
    expect(await find({ id: 999_999 })).toEqual({ user: null });
  });
});
