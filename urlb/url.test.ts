import { describe, expect, test } from "vitest";
import { urlb } from "~encore/clients";
import { get, shorten } from "./url";

describe("urlb", () => {
  test("getting a shortened url should give back the original", async () => {
    const resp = await shorten({ url: "https://example.com" });
    const got = await get({ id: resp.id });
    expect(got).toEqual({ id: resp.id, url: "https://example.com" });
  });

  test("ids are 8 URL-safe base64 characters", async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 50; i++) ids.add((await shorten({ url: `https://example.com/${i}` })).id);
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{8}$/);
  });

  test("an unknown id is not found", async () => {
    await expect(get({ id: "nope0000" })).rejects.toMatchObject({ code: "not_found", message: "url not found" });
  });

  test("the internal list endpoint is callable from other services", async () => {
    const { id } = await shorten({ url: "https://encore.dev/docs" });
    const { urls } = await urlb.list();
    expect(urls).toContainEqual({ id, url: "https://encore.dev/docs" });
  });
});
