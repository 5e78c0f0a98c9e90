import { api } from "encore.dev/api";
import { ratings, recent, scores, tags, views, votes } from "./cache";

/** How many recent visitors a page keeps. */
const recentKept = 3;

/** Counts a view of `page` by `visitor`: its views, its recent visitors (newest first). */
export const view = api(
  { expose: true, method: "POST", path: "/pages/:page/views" },
  async ({ page, visitor }: { page: string; visitor: string }): Promise<{ views: number; recent: string[] }> => {
    const count = await views.increment(page);
    await recent.pushLeft(page, visitor);
    await recent.trim(page, 0, recentKept - 1);
    return { views: count, recent: await recent.items(page) };
  },
);

/** Adds `delta` to the page's rating (a float); the new rating. */
export const rate = api(
  { expose: true, method: "POST", path: "/pages/:page/rating" },
  async ({ page, delta }: { page: string; delta: number }): Promise<{ rating: number }> => {
    return { rating: await ratings.increment(page, delta) };
  },
);

/** Records a score; the page's scores in order, and the best of them. */
export const score = api(
  { expose: true, method: "POST", path: "/pages/:page/scores" },
  async ({ page, value }: { page: string; value: number }): Promise<{ scores: number[]; best: number }> => {
    await scores.pushRight(page, value);
    const all = await scores.items(page);
    return { scores: all, best: Math.max(...all) };
  },
);

/** Tags a page; its tags, sorted, and whether it has "featured". */
export const tag = api(
  { expose: true, method: "POST", path: "/pages/:page/tags" },
  async ({ page, add }: { page: string; add: string[] }): Promise<{ added: number; tags: string[]; featured: boolean }> => {
    const added = await tags.add(page, ...add);
    return { added, tags: (await tags.items(page)).sort(), featured: await tags.contains(page, "featured") };
  },
);

/** Votes for options on two polls; the options either poll got, sorted, and those both got. */
export const vote = api(
  { expose: true, method: "POST", path: "/polls/:a/:b/votes" },
  async ({ a, b, forA, forB }: { a: string; b: string; forA: number[]; forB: number[] }): Promise<{ either: number[]; both: number[] }> => {
    await votes.add(a, ...forA);
    await votes.add(b, ...forB);
    const sort = (xs: number[]) => xs.sort((x, y) => x - y);
    return { either: sort(await votes.union(a, b)), both: sort(await votes.intersect(a, b)) };
  },
);

/** The page's activity as it is cached, without changing it. */
export const page = api(
  { expose: true, method: "GET", path: "/pages/:page" },
  async ({ page }: { page: string }): Promise<{ views: number; rating: number; recent: string[]; scores: number[]; tags: number }> => {
    const [count, rating, visitors, all, tagCount] = await Promise.all([views.get(page), ratings.get(page), recent.items(page), scores.items(page), tags.len(page)]);
    return { views: count ?? 0, rating: rating ?? 0, recent: visitors, scores: all, tags: tagCount };
  },
);
