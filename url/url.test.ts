import { describe, expect, test } from "vitest";
import { links } from "~encore/clients";
import { clickCounter } from "./click-counting/instance";
import { stats } from "./stats";

describe("stats", () => {
  test("an unknown or malformed code is not_found", async () => {
    await expect(stats({ code: "zzzzzz" })).rejects.toMatchObject({ code: "not_found", message: "url not found" });
    await expect(stats({ code: "NOT-A-CODE" })).rejects.toMatchObject({ code: "not_found" });
  });

  test("include clicks not yet written, and reading them changes nothing", async () => {
    const { code } = await links.shorten({ url: "https://stats.example" });
    clickCounter.record(code);
    clickCounter.record(code);
    expect((await stats({ code })).clicks).toBe(2);
    await clickCounter.flush();
    expect((await stats({ code })).clicks).toBe(2);
    expect((await stats({ code })).clicks).toBe(2);
  });
});
