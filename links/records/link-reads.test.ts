import { describe, expect, test } from "vitest";
import { db } from "../db";
import { listLinkRows, type LinkListQuery } from "./link-reads";

/** Links of `workspace`, oldest first, their URLs as given; resolves with their codes in that order. */
async function links(workspace: string, urls: string[]): Promise<string[]> {
  const codes: string[] = [];
  for (const [i, url] of urls.entries()) {
    const code = `${workspace}-${i}`;
    await db.exec`INSERT INTO urls (code, original_url, workspace_id, clicks) VALUES (${code}, ${url}, ${workspace}, ${(i * 7) % 5})`;
    codes.push(code);
  }
  return codes;
}

const base: Omit<LinkListQuery, "rows" | "sort"> = { status: "all", now: new Date() };

/** Every page of a search, `size` a page, joined: what the list answers, page after page. */
async function allPages(workspace: string, query: Omit<LinkListQuery, "rows" | "after">, size: number, walk: number): Promise<string[]> {
  const codes: string[] = [];
  let after: LinkListQuery["after"];
  for (;;) {
    const rows = await listLinkRows(workspace, { ...query, rows: size + 1, after }, walk);
    codes.push(...rows.slice(0, size).map((r) => r.code));
    if (rows.length <= size) return codes;
    const last = rows[size - 1]!;
    after = { id: last.id, clicks: last.clicks };
  }
}

describe("a search's pages", () => {
  // With a walk of 3 links, the pages are made of both steps: the newest links walked, then
  // the older matches from the trigram index.
  test("newest first: the walked links' matches, then the older ones', each once, in order, across pages", async () => {
    const urls = Array.from({ length: 20 }, (_, i) => `https://example.com/${[1, 2, 6, 9, 10, 11, 17, 19].includes(i) ? "needle" : "hay"}/${i}`);
    const codes = await links("lr-sparse", urls);
    const matching = codes.filter((_, i) => urls[i]!.includes("needle")).reverse();
    for (const size of [1, 2, 3, 5, 100]) {
      for (const walk of [1, 3, 50]) {
        expect(await allPages("lr-sparse", { ...base, q: "NEEDLE", sort: "newest" }, size, walk), `pages of ${size}, walk ${walk}`).toEqual(matching);
      }
    }
  });

  test("a search matching most links fills its page from the walk; most clicked first reads the matches", async () => {
    const urls = Array.from({ length: 12 }, (_, i) => `https://example.com/${i === 4 ? "other" : "common"}/${i}`);
    const codes = await links("lr-dense", urls);
    const rows = await listLinkRows("lr-dense", { ...base, q: "common", sort: "newest", rows: 3 }, 3);
    expect(rows.map((r) => r.code)).toEqual([codes[11], codes[10], codes[9]]);
    const byClicks = (await db.queryAll<{ code: string }>`
      SELECT code FROM urls WHERE workspace_id = 'lr-dense' AND original_url LIKE '%common%' ORDER BY clicks DESC, id DESC`).map((r) => r.code);
    expect(await allPages("lr-dense", { ...base, q: "common", sort: "clicks" }, 4, 3)).toEqual(byClicks);
  });
});
