import { APIError } from "encore.dev/api";
import { book } from "~encore/clients";

export const typeDefs = `#graphql
  type Book {
    title: String!
    author: String!
  }

  type AddBookResult {
    success: Boolean!
    message: String!
    book: Book
  }

  type Query {
    books: [Book!]!
  }

  type Mutation {
    addBook(title: String!, author: String!): AddBookResult!
  }
`;

// The resolvers call the book service as any other service would, through ~encore/clients.
export const resolvers = {
  Query: {
    books: async () => (await book.list()).books,
  },
  Mutation: {
    addBook: async (_: unknown, args: { title: string; author: string }) => {
      try {
        const added = await book.add(args);
        return { success: true, message: "added", book: added.book };
      } catch (err) {
        if (err instanceof APIError) return { success: false, message: err.message, book: null };
        throw err;
      }
    },
  },
};
