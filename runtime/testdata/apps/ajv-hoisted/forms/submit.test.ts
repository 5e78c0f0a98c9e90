import { describe, expect, test } from "vitest";
import { submit } from "./submit";

describe("submit", () => {
  test("accepts answers that fit the form", async () => {
    const receipt = await submit({ form: "signup", email: "ada@example.com", answers: { age: 36, newsletter: true } });
    expect(receipt).toEqual({ form: "signup", email: "ada@example.com", accepted: true, problems: [] });
  });

  test("lists every problem, in ajv 6's words", async () => {
    const receipt = await submit({ form: "signup", email: "ada@example.com", answers: { age: -1, newsletter: "yes" } });
    expect(receipt.accepted).toBe(false);
    expect(receipt.problems).toEqual([".age should be >= 0", ".newsletter should be boolean"]);
  });

  test("refuses a form that does not exist", async () => {
    await expect(submit({ form: "survey", email: "ada@example.com", answers: {} })).rejects.toMatchObject({ code: "not_found" });
  });
});
