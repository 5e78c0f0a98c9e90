import { api } from "encore.dev/api";
import type { Max, Min } from "encore.dev/validate";
import type { Book } from "./book";
import { db } from "./db";

/** Filters and paging of GET /books, all from the query string. */
export interface ListParams {
  /** Only this author's books. */
  author?: string;
  /** Books published in or after this year. */
  since?: number;
  limit?: number & Min<1> & Max<100>;
  offset?: number & Min<0>;
}

export interface BookList {
  books: Book[];
}

/** Books in id order, optionally filtered by author and year. */
export const list = api(
  { expose: true, method: "GET", path: "/books" },
  async ({ author, since, limit = 20, offset = 0 }: ListParams): Promise<BookList> => {
    const rows = db.query<Book>`
      SELECT id, title, author, year FROM books
      WHERE (${author ?? null}::text IS NULL OR author = ${author ?? null})
        AND (${since ?? null}::int IS NULL OR year >= ${since ?? null})
      ORDER BY id
      LIMIT ${limit} OFFSET ${offset}`;
    const books: Book[] = [];
    for await (const row of rows) books.push(row);
    return { books };
  },
);
