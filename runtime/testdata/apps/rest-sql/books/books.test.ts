import { APIError, ErrCode } from "encore.dev/api";
import { describe, expect, test } from "vitest";
import { create, get, remove, update } from "./books";

const dune = { title: "Dune", author: "Frank Herbert", year: 1965 };

async function codeOf(call: Promise<unknown>): Promise<ErrCode | undefined> {
  try {
    await call;
  } catch (err) {
    if (err instanceof APIError) return err.code;
    throw err;
  }
  return undefined;
}

describe("books", () => {
  test("a created book can be read back by its id", async () => {
    const created = await create(dune);
    expect(created.id).toBeGreaterThan(0);
    expect(await get({ id: created.id })).toEqual({ id: created.id, ...dune });
  });

  test("an update replaces the fields and keeps the id", async () => {
    const { id } = await create(dune);
    const updated = await update({ id, title: "Dune Messiah", author: "Frank Herbert", year: 1969 });
    expect(updated).toEqual({ id, title: "Dune Messiah", author: "Frank Herbert", year: 1969 });
    expect((await get({ id })).title).toBe("Dune Messiah");
  });

  test("a deleted book is not found afterwards", async () => {
    const { id } = await create(dune);
    await remove({ id });
    expect(await codeOf(get({ id }))).toBe(ErrCode.NotFound);
  });

  test("reading, updating or deleting an unknown id is not found", async () => {
    expect(await codeOf(get({ id: 999_999 }))).toBe(ErrCode.NotFound);
    expect(await codeOf(update({ id: 999_999, ...dune }))).toBe(ErrCode.NotFound);
    expect(await codeOf(remove({ id: 999_999 }))).toBe(ErrCode.NotFound);
  });
});
