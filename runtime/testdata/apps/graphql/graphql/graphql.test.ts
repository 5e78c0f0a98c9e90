import { describe, expect, test } from "vitest";
import { server } from "./graphql";

// The schema and its resolvers, through Apollo's own executeOperation: the resolvers call
// the book service through ~encore/clients. Apollo does not watch signals under NODE_ENV=test.
async function run(query: string, variables?: Record<string, unknown>) {
  const { body } = await server.executeOperation({ query, variables });
  if (body.kind !== "single") throw new Error(`expected a single result, got ${body.kind}`);
  return body.singleResult;
}

describe("graphql", () => {
  test("books lists the shelf of the book service", async () => {
    const result = await run("{ books { title author } }");
    expect(result.errors).toBeUndefined();
    expect(result.data?.books).toContainEqual({ title: "1984", author: "George Orwell" });
  });

  test("addBook adds through the book service, and the book is then listed", async () => {
    const added = await run("mutation Add($t: String!, $a: String!) { addBook(title: $t, author: $a) { success book { title } } }", {
      t: "The Hobbit",
      a: "J.R.R. Tolkien",
    });
    expect(added.data?.addBook).toEqual({ success: true, book: { title: "The Hobbit" } });
    const listed = await run("{ books { title } }");
    expect(listed.data?.books).toContainEqual({ title: "The Hobbit" });
  });

  test("adding a title already on the shelf answers success false with the service's message", async () => {
    const result = await run('mutation { addBook(title: "1984", author: "Someone") { success message } }');
    expect(result.data?.addBook).toEqual({ success: false, message: 'Book "1984" is already on the shelf' });
  });

  test("a field the schema lacks is GraphQL's validation error", async () => {
    const result = await run("{ authors { name } }");
    expect(result.errors?.[0]?.message).toBe('Cannot query field "authors" on type "Query".');
  });
});
