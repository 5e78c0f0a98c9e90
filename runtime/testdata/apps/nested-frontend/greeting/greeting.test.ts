import { describe, expect, test } from "vitest";
import { greet } from "./greeting";

describe("greet", () => {
  test("greets the name it is given", async () => {
    expect(await greet({ name: "Ada" })).toEqual({ message: "Hello, Ada!" });
  });

  test("greets a stranger without a name", async () => {
    expect((await greet({})).message).toBe("Hello, stranger!");
  });
});
