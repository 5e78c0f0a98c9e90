import { api, APIError } from "encore.dev/api";

export interface Book {
  title: string;
  author: string;
}

const shelf: Book[] = [
  { title: "1984", author: "George Orwell" },
  { title: "Moby-Dick", author: "Herman Melville" },
];

/** Every book on the shelf, in the order they were added. */
export const list = api(
  { expose: true, method: "GET", path: "/books" },
  async (): Promise<{ books: Book[] }> => {
    return { books: shelf };
  },
);

/** Puts a book on the shelf; a title already there is refused. */
export const add = api(
  { expose: true, method: "POST", path: "/book" },
  async (book: Book): Promise<{ book: Book }> => {
    if (shelf.some((b) => b.title === book.title)) {
      throw APIError.alreadyExists(`Book "${book.title}" is already on the shelf`);
    }
    shelf.push(book);
    return { book };
  },
);
