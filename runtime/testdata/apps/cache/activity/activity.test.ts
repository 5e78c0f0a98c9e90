import { describe, expect, test } from "vitest";
import { page, rate, score, tag, view, vote } from "./activity";

describe("activity", () => {
  test("views count up and keep the three most recent visitors, newest first", async () => {
    for (const visitor of ["a", "b", "c"]) await view({ page: "home", visitor });
    expect(await view({ page: "home", visitor: "d" })).toEqual({ views: 4, recent: ["d", "c", "b"] });
  });

  test("ratings are floats, scores a list, tags a set", async () => {
    await rate({ page: "p", delta: 1.5 });
    expect(await rate({ page: "p", delta: -0.25 })).toEqual({ rating: 1.25 });
    await score({ page: "p", value: 3 });
    expect(await score({ page: "p", value: 9 })).toEqual({ scores: [3, 9], best: 9 });
    expect(await tag({ page: "p", add: ["new", "featured", "new"] })).toEqual({ added: 2, tags: ["featured", "new"], featured: true });
    expect(await page({ page: "p" })).toEqual({ views: 0, rating: 1.25, recent: [], scores: [3, 9], tags: 2 });
  });

  test("votes: union and intersection of two polls", async () => {
    expect(await vote({ a: "x", b: "y", forA: [1, 2, 3], forB: [3, 4] })).toEqual({ either: [1, 2, 3, 4], both: [3] });
  });
});
