import { beforeAll, describe, expect, test } from "vitest";
import { create } from "./books";
import { list } from "./list";

// Authors unique to this file, so the filters see only the books made here.
const le = `Ursula K. Le Guin ${Date.now()}`;
const lem = `Stanisław Lem ${Date.now()}`;

beforeAll(async () => {
  await create({ title: "The Left Hand of Darkness", author: le, year: 1969 });
  await create({ title: "Solaris", author: lem, year: 1961 });
  await create({ title: "The Dispossessed", author: le, year: 1974 });
});

describe("listing books", () => {
  test("the author filter keeps only that author's books, in the order they were added", async () => {
    const { books } = await list({ author: le });
    expect(books.map((b) => b.title)).toEqual(["The Left Hand of Darkness", "The Dispossessed"]);
  });

  test("since keeps books published in or after that year", async () => {
    const { books } = await list({ author: le, since: 1970 });
    expect(books.map((b) => b.title)).toEqual(["The Dispossessed"]);
  });

  test("limit and offset page through the results", async () => {
    const first = await list({ author: le, limit: 1 });
    const second = await list({ author: le, limit: 1, offset: 1 });
    expect(first.books.map((b) => b.title)).toEqual(["The Left Hand of Darkness"]);
    expect(second.books.map((b) => b.title)).toEqual(["The Dispossessed"]);
  });
});
