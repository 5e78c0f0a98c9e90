import { APIError, ErrCode } from "encore.dev/api";
import { describe, expect, test } from "vitest";
import { pageFor } from "./pages";
import { docs } from "./site";

describe("the site's pages", () => {
  test("the index and the pages in folders are found by name, and nothing else is", () => {
    expect(pageFor("index")).toContain("<h1>Welcome</h1>");
    expect(pageFor("guides/getting-started")).toContain("<h1>Getting started</h1>");
    expect(pageFor("guides")).toBeUndefined();
    expect(pageFor("toString")).toBeUndefined();
  });
});

describe("docs", () => {
  test("a topic at any depth is found by its path", async () => {
    expect(await docs({ topic: "routing/fallbacks" })).toEqual({ topic: "routing/fallbacks", title: "Fallback routes" });
  });

  test("no topic is the contents", async () => {
    expect(await docs({})).toEqual({ topic: "index", title: "Contents" });
  });

  test("an unknown topic is not found", async () => {
    const failure = await docs({ topic: "nowhere" }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(APIError);
    expect((failure as APIError).code).toBe(ErrCode.NotFound);
  });
});
