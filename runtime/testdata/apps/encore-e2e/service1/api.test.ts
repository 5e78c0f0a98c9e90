import { describe, expect, test } from "vitest";
import { customStatus, hello } from "./api";

describe("service1", () => {
  test("hello puts the name in the message", async () => {
    expect(await hello({ name: "world" })).toEqual({ message: "Hello world" });
  });

  test("called as a function, the status field is an ordinary field of the result", async () => {
    expect(await customStatus()).toEqual({ message: "I accept!", status: 202 });
  });
});
