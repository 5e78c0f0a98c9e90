import { api, APIError } from "encore.dev/api";
import type { Book, BookFields } from "./book";
import { db } from "./db";

/** Adds a book and returns it with its id. */
export const create = api(
  { expose: true, method: "POST", path: "/books" },
  async (fields: BookFields): Promise<Book> => {
    const row = await db.queryRow<Book>`
      INSERT INTO books (title, author, year)
      VALUES (${fields.title}, ${fields.author}, ${fields.year})
      RETURNING id, title, author, year`;
    // INSERT ... RETURNING always yields the row it wrote.
    return row!;
  },
);

/** One book by id. */
export const get = api(
  { expose: true, method: "GET", path: "/books/:id" },
  async ({ id }: { id: number }): Promise<Book> => {
    const row = await db.queryRow<Book>`SELECT id, title, author, year FROM books WHERE id = ${id}`;
    if (!row) throw APIError.notFound(`book ${id} not found`);
    return row;
  },
);

/** Replaces every field of a book. */
export const update = api(
  { expose: true, method: "PUT", path: "/books/:id" },
  async ({ id, ...fields }: { id: number } & BookFields): Promise<Book> => {
    const row = await db.queryRow<Book>`
      UPDATE books SET title = ${fields.title}, author = ${fields.author}, year = ${fields.year}
      WHERE id = ${id}
      RETURNING id, title, author, year`;
    if (!row) throw APIError.notFound(`book ${id} not found`);
    return row;
  },
);

/** Deletes a book; deleting one that is not there is not found, so a client learns of a wrong id. */
export const remove = api(
  { expose: true, method: "DELETE", path: "/books/:id" },
  async ({ id }: { id: number }): Promise<void> => {
    const row = await db.queryRow`DELETE FROM books WHERE id = ${id} RETURNING id`;
    if (!row) throw APIError.notFound(`book ${id} not found`);
  },
);
