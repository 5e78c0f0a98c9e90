import { greeting } from "~encore/clients";
import { describe, expect, test } from "vitest";
import { greet, greetMany } from "./greeting";

describe("greeting", () => {
  test("greets the name in the path, in English unless asked otherwise", async () => {
    expect(await greet({ name: "World" })).toEqual({ message: "Hello World!" });
    expect(await greet({ name: "Monde", lang: "fr" })).toEqual({ message: "Bonjour Monde!" });
  });

  test("an unknown language is an invalid argument", async () => {
    await expect(greet({ name: "World", lang: "xx" })).rejects.toMatchObject({ code: "invalid_argument" });
  });

  test("greets as many times as asked, and refuses more than three", async () => {
    expect((await greetMany({ name: "Ada", times: 2 })).message).toBe("Hello Ada! Hello Ada!");
    await expect(greetMany({ name: "Ada", times: 4 })).rejects.toMatchObject({ code: "invalid_argument" });
  });

  test("answers through the generated client too, as another service would call it", async () => {
    expect(await greeting.greet({ name: "Världen", lang: "sv" })).toEqual({ message: "Hej Världen!" });
  });
});
