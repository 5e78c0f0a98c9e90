import { describe, expect, test } from "vitest";
import { get } from "./hello";

describe("hello", () => {
  test("the greeting names whoever is in the path", async () => {
    const resp = await get({ name: "World" });
    expect(resp).toEqual({ message: "Hello World!" });
  });

  test("a name with spaces comes back as it was given", async () => {
    expect((await get({ name: "Ada Lovelace" })).message).toBe("Hello Ada Lovelace!");
  });
});
