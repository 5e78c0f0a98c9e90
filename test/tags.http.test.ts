// Tags over real HTTP: links tagged when made, edited and in bulk (1,000 in one request),
// the list filtered by them, tags renamed and deleted, a tag's analytics the exact sum of
// its links', and every tag endpoint refusing a caller without the role or the scope.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { apiCaller, signUpAndLogIn, type Reply } from "./support/api-client.ts";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";
import { clickCounter } from "../url/click-counting/instance.ts";
import { db } from "../url/db.ts";

vi.hoisted(() => {
  // Read once, when the configs load: each click names its address; a user makes 1,000+ links.
  process.env.TRUST_PROXY = "on";
  process.env.SHORTEN_LIMIT_PER_USER = "1500";
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const call = apiCaller(() => server.url);
let accounts = 0;
const signedIn = async () => {
  accounts += 1;
  const { token, userID } = await signUpAndLogIn(call, `tags-${accounts}-${Date.now()}@example.com`);
  return { token, userID };
};
const ok = (reply: Reply) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};
const shorten = async (token: string, body: Record<string, unknown>) => ok(await call("POST", "/shorten", { token, body })).code as string;
const list = async (token: string, query: string) =>
  (ok(await call("GET", `/links${query}`, { token })).links as { code: string; tags: string[] }[]).map((l) => l.code);
const tagsOf = async (token: string, workspace: string) =>
  ok(await call("GET", `/workspaces/${workspace}/tags`, { token })).tags as { id: number; name: string; links: number }[];

describe("tagging links and filtering by tags", () => {
  test("tags given on create and edit are the link's; the list filters by any or all of them, with the search", async () => {
    const { token, userID } = await signedIn();
    const a = await shorten(token, { url: "https://tags.example/a", tags: ["Sale", "spring"] });
    const b = await shorten(token, { url: "https://tags.example/b", title: "Boots", tags: [" sale ", "SALE", "Boots"] });
    const c = await shorten(token, { url: "https://tags.example/c" });

    // Names are one tag in any case, the first spelling kept, trimmed; the Link shape carries them by name.
    expect(ok(await call("GET", `/links/${a}`, { token })).tags).toEqual(["Sale", "spring"]);
    expect(ok(await call("GET", `/links/${b}`, { token })).tags).toEqual(["Boots", "Sale"]);
    expect(ok(await call("GET", `/links/${c}`, { token })).tags).toEqual([]);
    expect((await tagsOf(token, userID)).map((t) => [t.name, t.links])).toEqual([
      ["Boots", 1],
      ["Sale", 2],
      ["spring", 1],
    ]);

    expect(await list(token, "?tags=sale")).toEqual([b, a]);
    expect(await list(token, "?tags=spring,boots")).toEqual([b, a]);
    expect(await list(token, "?tags=spring,boots&tagsMode=all")).toEqual([]);
    expect(await list(token, "?tags=sale,boots&tagsMode=all")).toEqual([b]);
    expect(await list(token, "?tags=sale&q=boots")).toEqual([b]);
    expect(await list(token, "?tags=sale&sort=clicks&limit=1")).toHaveLength(1);
    expect(await list(token, "?tags=nothing-by-this-name")).toEqual([]);
    expect(await list(token, "?tags=sale,nothing-by-this-name&tagsMode=all")).toEqual([]);
    expect(await list(token, "")).toEqual([c, b, a]);
    expect(await call("GET", "/links?tags=a,,b", { token })).toMatchObject({ status: 400, body: { code: "invalid_argument", message: expect.stringContaining("tags") } });
    expect(await call("GET", "/links?tags=a&tagsMode=some", { token })).toMatchObject({ status: 400 });

    // PATCH replaces the set; a tag alone leaves updatedAt; an unknown name becomes a tag.
    const edited = ok(await call("PATCH", `/links/${c}`, { token, body: { tags: ["spring", "new one"] } }));
    expect(edited).toMatchObject({ tags: ["new one", "spring"] });
    expect(edited.updatedAt).toBeUndefined();
    expect(ok(await call("PATCH", `/links/${a}`, { token, body: { tags: [] } })).tags).toEqual([]);
    expect(await list(token, "?tags=spring")).toEqual([c]);

    const twentyOne = Array.from({ length: 21 }, (_, i) => `t${i}`);
    expect(await call("PATCH", `/links/${c}`, { token, body: { tags: twentyOne } })).toMatchObject({ status: 400, body: { message: expect.stringContaining("at most 20") } });
    expect(await call("POST", "/shorten", { token, body: { url: "https://tags.example/d", tags: ["a,b"] } })).toMatchObject({ status: 400 });
    expect(await call("POST", "/shorten", { token, body: { url: "https://tags.example/d", tags: ["x".repeat(51)] } })).toMatchObject({ status: 400 });
    expect(await call("POST", "/shorten", { body: { url: "https://tags.example/anon", tags: ["x"] } })).toMatchObject({ status: 401 });

    // Bulk creation tags each item; a deleted link keeps its tags but leaves the count and the list.
    const made = ok(
      await call("POST", "/links/bulk", { token, body: { items: [{ url: "https://tags.example/e", tags: ["bulk"] }, { url: "https://tags.example/f", tags: ["Bulk", "sale"] }] } }),
    ).results as { code: string }[];
    expect(await list(token, "?tags=bulk")).toEqual([made[1]!.code, made[0]!.code]);
    expect(ok(await call("DELETE", `/links/${made[0]!.code}`, { token })));
    expect(ok(await call("GET", `/links/${made[0]!.code}`, { token })).tags).toEqual(["bulk"]);
    expect((await tagsOf(token, userID)).find((t) => t.name === "bulk")!.links).toBe(1);
  });

  test("1,000 links tagged in one request, all or nothing; removed in one request", async () => {
    const { token, userID } = await signedIn();
    const items = Array.from({ length: 1000 }, (_, i) => ({ url: `https://tags.example/many/${i}` }));
    const codes = (ok(await call("POST", "/links/bulk", { token, body: { items } })).results as { code: string }[]).map((r) => r.code);
    expect(new Set(codes).size).toBe(1000);

    // A code of no link of the workspace: 404 naming it, and nothing changed, no tag made.
    const refused = await call("POST", "/links/tags", { token, body: { codes: [...codes.slice(0, 999), "zz-none"], add: ["campaign"] } });
    expect(refused).toMatchObject({ status: 404, body: { code: "not_found", message: expect.stringContaining("zz-none"), details: { codes: ["zz-none"] } } });
    expect(await tagsOf(token, userID)).toEqual([]);

    const started = Date.now();
    expect(ok(await call("POST", "/links/tags", { token, body: { codes, add: ["campaign", "Q4"] } }))).toEqual({ updated: 1000, added: 2000, removed: 0 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await tagsOf(token, userID)).map((t) => [t.name, t.links])).toEqual([
      ["campaign", 1000],
      ["Q4", 1000],
    ]);
    const stored = await db.queryRow<{ n: number }>`
      SELECT count(*)::int AS n FROM link_tags lt JOIN urls u ON u.id = lt.link_id WHERE u.code = ANY(${codes}::text[])`;
    expect(stored!.n).toBe(2000);
    // Again: nothing new; the page of the filter is full, and the filter sees every one.
    expect(ok(await call("POST", "/links/tags", { token, body: { codes, add: ["CAMPAIGN"] } }))).toEqual({ updated: 1000, added: 0, removed: 0 });
    expect(await list(token, "?tags=campaign,q4&tagsMode=all&limit=100")).toHaveLength(100);
    // A tag's analytics over its 1,000 links: one read over their codes.
    const campaign = (await tagsOf(token, userID))[0]!;
    const read = Date.now();
    expect(ok(await call("GET", `/workspaces/${userID}/tags/${campaign.id}/analytics`, { token }))).toMatchObject({ tag: { name: "campaign" }, totals: { all: 0 } });
    expect(Date.now() - read).toBeLessThan(2_000);

    expect(ok(await call("POST", "/links/tags", { token, body: { codes: codes.slice(0, 400), remove: ["q4", "never-made"] } }))).toEqual({
      updated: 400,
      added: 0,
      removed: 400,
    });
    expect((await tagsOf(token, userID)).map((t) => t.links)).toEqual([1000, 600]);

    expect(await call("POST", "/links/tags", { token, body: { codes: [...codes, "one-more"], add: ["x"] } })).toMatchObject({ status: 400, body: { message: expect.stringContaining("1000") } });
    expect(await call("POST", "/links/tags", { token, body: { codes: [], add: ["x"] } })).toMatchObject({ status: 400 });
    expect(await call("POST", "/links/tags", { token, body: { codes } })).toMatchObject({ status: 400, body: { message: expect.stringContaining("nothing to change") } });
    expect(await call("POST", "/links/tags", { token, body: { codes, add: ["x"], remove: ["X"] } })).toMatchObject({ status: 400 });
  });

  test("a tag renamed is renamed on its links; a clash is 409; deleted, it leaves its links", async () => {
    const { token, userID } = await signedIn();
    const code = await shorten(token, { url: "https://tags.example/rename", tags: ["draft", "keep"] });
    const [draft, keep] = await tagsOf(token, userID);
    expect(ok(await call("PATCH", `/workspaces/${userID}/tags/${draft!.id}`, { token, body: { name: " Final " } }))).toMatchObject({ id: draft!.id, name: "Final", links: 1 });
    expect(ok(await call("GET", `/links/${code}`, { token })).tags).toEqual(["Final", "keep"]);
    expect(ok(await call("PATCH", `/workspaces/${userID}/tags/${draft!.id}`, { token, body: { name: "FINAL" } })).name).toBe("FINAL");
    expect(await call("PATCH", `/workspaces/${userID}/tags/${draft!.id}`, { token, body: { name: "KEEP" } })).toMatchObject({ status: 409, body: { code: "already_exists" } });
    expect(await call("POST", `/workspaces/${userID}/tags`, { token, body: { name: "Keep" } })).toMatchObject({ status: 409 });
    expect(ok(await call("POST", `/workspaces/${userID}/tags`, { token, body: { name: "empty" } }))).toMatchObject({ name: "empty", links: 0 });
    expect(await call("POST", `/workspaces/${userID}/tags`, { token, body: { name: "  " } })).toMatchObject({ status: 400, body: { message: expect.stringContaining("name") } });

    expect((await call("DELETE", `/workspaces/${userID}/tags/${keep!.id}`, { token })).status).toBe(200);
    expect(ok(await call("GET", `/links/${code}`, { token })).tags).toEqual(["FINAL"]);
    expect(await call("DELETE", `/workspaces/${userID}/tags/${keep!.id}`, { token })).toMatchObject({ status: 404, body: { message: "tag not found" } });

    // At most 500 tags a workspace: the 501st is refused, whether made alone or on a link.
    await db.exec`INSERT INTO tags (workspace_id, name) SELECT ${userID}, 'filler ' || i FROM generate_series(1, 500 - 2) AS i`;
    expect((await tagsOf(token, userID)).length).toBe(500);
    expect(await call("POST", `/workspaces/${userID}/tags`, { token, body: { name: "one too many" } })).toMatchObject({ status: 400, body: { code: "failed_precondition" } });
    expect(await call("PATCH", `/links/${code}`, { token, body: { tags: ["FINAL", "one too many"] } })).toMatchObject({ status: 400, body: { code: "failed_precondition" } });
    expect(ok(await call("PATCH", `/links/${code}`, { token, body: { tags: ["final", "filler 7"] } })).tags).toEqual(["filler 7", "FINAL"]);
    expect(await call("PATCH", `/workspaces/${userID}/tags/999999999`, { token, body: { name: "x" } })).toMatchObject({ status: 404 });
  });
});

const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

function click(code: string, agent: string, from: string, referer?: string): Promise<number> {
  const headers: Record<string, string> = { "x-forwarded-for": from, "user-agent": agent };
  if (referer !== undefined) headers.referer = referer;
  return new Promise((resolve, reject) => {
    http
      .request(`${server.url}/${code}`, { headers }, (res) => res.resume().on("end", () => resolve(res.statusCode!)))
      .on("error", reject)
      .end();
  });
}

interface Breakdown {
  top: { value: string; humans: number; bots: number }[];
  other: { humans: number; bots: number };
}
interface Analytics {
  totals: { all: number; humans: number; bots: number };
  series: { start: string; humans: number; bots: number }[];
  referrers: Breakdown;
  countries: Breakdown;
  browsers: Breakdown;
  os: Breakdown;
  devices: Breakdown;
}
const breakdowns = ["referrers", "countries", "browsers", "os", "devices"] as const;

/** Each breakdown as value → [humans, bots], "(other)" for other, summed over answers. */
function summed(answers: Analytics[]): Record<string, Record<string, [number, number]>> {
  const out: Record<string, Record<string, [number, number]>> = {};
  for (const b of breakdowns) {
    const values: Record<string, [number, number]> = {};
    const add = (value: string, humans: number, bots: number) => {
      const v = (values[value] ??= [0, 0]);
      v[0] += humans;
      v[1] += bots;
    };
    for (const a of answers) {
      for (const v of a[b].top) add(v.value, v.humans, v.bots);
      add("(other)", a[b].other.humans, a[b].other.bots);
    }
    out[b] = values;
  }
  return out;
}

describe("a tag's analytics", () => {
  test("every total, series point and breakdown is the sum of its links', hourly and rolled-up days alike; deleted links count", async () => {
    const { token, userID } = await signedIn();
    const [one, two, three] = [
      await shorten(token, { url: "https://tags.example/an-1", tags: ["launch"] }),
      await shorten(token, { url: "https://tags.example/an-2", tags: ["launch", "other"] }),
      await shorten(token, { url: "https://tags.example/an-3", tags: ["launch"] }),
    ];
    const untagged = await shorten(token, { url: "https://tags.example/an-4" });
    const clicks: [string, string, string, string?][] = [
      [one, chrome, "81.2.69.142", "https://news.ycombinator.com/x"],
      [one, chrome, "81.2.69.142", "https://news.ycombinator.com/x"],
      [one, googlebot, "8.8.8.8"],
      [two, iphone, "8.8.8.8", "https://t.co/y"],
      [two, chrome, "193.0.6.139"],
      [three, iphone, "133.242.0.3", "https://news.ycombinator.com/z"],
      [untagged, chrome, "81.2.69.142"],
    ];
    for (const [code, agent, from, referer] of clicks) expect(await click(code, agent, from, referer)).toBe(200);
    await clickCounter.flush();
    // Older clicks, as the rollup leaves them: per UTC day and dimension.
    const day = new Date(Date.now() - 50 * 86_400_000).toISOString().slice(0, 10);
    for (const [code, humans, bots] of [
      [one, 4, 1],
      [three, 2, 0],
    ] as const) {
      await db.exec`
        INSERT INTO link_clicks_daily (code, dimension, day, value, humans, bots) VALUES
          (${code}, 'all', ${day}::date, '', ${humans}, ${bots}), (${code}, 'referrer', ${day}::date, 'direct', ${humans}, ${bots}),
          (${code}, 'country', ${day}::date, 'FR', ${humans}, ${bots}), (${code}, 'browser', ${day}::date, 'Firefox', ${humans}, ${bots}),
          (${code}, 'os', ${day}::date, 'Linux', ${humans}, ${bots}), (${code}, 'device', ${day}::date, 'desktop', ${humans}, ${bots})`;
    }
    expect(ok(await call("DELETE", `/links/${three}`, { token })));
    const launch = (await tagsOf(token, userID)).find((t) => t.name === "launch")!;

    for (const query of ["", "?from=" + day + "&tz=Asia/Tokyo", "?interval=hour&from=" + new Date(Date.now() - 2 * 86_400_000).toISOString()]) {
      const links = await Promise.all([one, two, three].map(async (code) => ok(await call("GET", `/${code}/analytics${query}`, { token })) as unknown as Analytics));
      const tag = ok(await call("GET", `/workspaces/${userID}/tags/${launch.id}/analytics${query}`, { token })) as unknown as Analytics & Record<string, unknown>;
      expect(tag.tag).toEqual({ id: launch.id, name: "launch" });
      expect(tag.totals).toEqual({
        all: links.reduce((n, l) => n + l.totals.all, 0),
        humans: links.reduce((n, l) => n + l.totals.humans, 0),
        bots: links.reduce((n, l) => n + l.totals.bots, 0),
      });
      expect(tag.series.map((p) => p.start)).toEqual(links[0]!.series.map((p) => p.start));
      expect(tag.series).toEqual(
        links[0]!.series.map((p, i) => ({ start: p.start, humans: links.reduce((n, l) => n + l.series[i]!.humans, 0), bots: links.reduce((n, l) => n + l.series[i]!.bots, 0) })),
      );
      // Few values per dimension, so no link's falls into other: the sums compare value by value.
      expect(summed([tag])).toEqual(summed(links));
    }
    const all = ok(await call("GET", `/workspaces/${userID}/tags/${launch.id}/analytics?from=${day}`, { token })) as unknown as Analytics;
    expect(all.totals).toEqual({ all: 13, humans: 11, bots: 2 });
    expect(Object.fromEntries(all.referrers.top.map((v) => [v.value, v.humans + v.bots]))).toEqual({ direct: 9, "news.ycombinator.com": 3, "t.co": 1 });
  });
});

describe("who may use the tag endpoints", () => {
  test("a viewer reads but changes nothing (403); a non-member is 404; signed out 401; a key without the scope 403", async () => {
    const owner = await signedIn();
    const viewer = await signedIn();
    const outsider = await signedIn();
    const ws = ok(await call("POST", "/workspaces", { token: owner.token, body: { name: "Tagged team" } })).id as string;
    const invitation = ok(await call("POST", `/workspaces/${ws}/invitations`, { token: owner.token, body: { role: "viewer" } }));
    ok(await call("POST", "/invitations/accept", { token: viewer.token, body: { token: invitation.token } }));
    const code = await shorten(owner.token, { url: "https://tags.example/team", workspaceId: ws, tags: ["team"] });
    const tagId = (await tagsOf(owner.token, ws))[0]!.id;

    const reads: [string, string][] = [
      ["GET", `/workspaces/${ws}/tags`],
      ["GET", `/workspaces/${ws}/tags/${tagId}/analytics`],
      ["GET", `/links?workspaceId=${ws}&tags=team`],
    ];
    const writes: [string, string, unknown][] = [
      ["POST", `/workspaces/${ws}/tags`, { name: "new" }],
      ["PATCH", `/workspaces/${ws}/tags/${tagId}`, { name: "renamed" }],
      ["DELETE", `/workspaces/${ws}/tags/${tagId}`, undefined],
      ["POST", "/links/tags", { workspaceId: ws, codes: [code], add: ["more"] }],
    ];
    for (const [method, path] of reads) expect((await call(method, path, { token: viewer.token })).status, path).toBe(200);
    for (const [method, path, body] of writes) {
      expect(await call(method, path, { token: viewer.token, body }), `${method} ${path}`).toMatchObject({ status: 403, body: { code: "permission_denied" } });
    }
    expect(await call("PATCH", `/links/${code}`, { token: viewer.token, body: { tags: [] } })).toMatchObject({ status: 403 });
    for (const [method, path, body] of [...reads.map(([m, p]) => [m, p, undefined] as const), ...writes]) {
      expect(await call(method, path, { token: outsider.token, body }), `${method} ${path}`).toMatchObject({ status: 404, body: { code: "not_found" } });
      expect(await call(method, path, { body }), `${method} ${path}`).toMatchObject({ status: 401, body: { code: "unauthenticated" } });
    }
    // Another account's personal workspace is as a team's the caller is not in.
    expect(await call("GET", `/workspaces/${owner.userID}/tags`, { token: outsider.token })).toMatchObject({ status: 404 });
    expect(await call("GET", `/workspaces/${owner.userID}/tags/${tagId}/analytics`, { token: outsider.token })).toMatchObject({ status: 404 });
    // A tag of another workspace under one's own: not found.
    expect(await call("GET", `/workspaces/${outsider.userID}/tags/${tagId}/analytics`, { token: outsider.token })).toMatchObject({ status: 404, body: { message: "tag not found" } });
    expect(await call("DELETE", `/workspaces/${outsider.userID}/tags/${tagId}`, { token: outsider.token })).toMatchObject({ status: 404 });

    // API keys, made for the team's workspace: each endpoint needs its scope.
    const keyWith = async (scopes: string[]) =>
      ok(await call("POST", "/me/api-keys", { token: owner.token, body: { name: scopes.join(" "), scopes, workspaceId: ws } })).key as string;
    const needs: [string, string, string, unknown?][] = [
      ["links:read", "GET", `/workspaces/${ws}/tags`],
      ["analytics:read", "GET", `/workspaces/${ws}/tags/${tagId}/analytics`],
      ["links:write", "POST", `/workspaces/${ws}/tags`, { name: "by-key" }],
      ["links:write", "PATCH", `/workspaces/${ws}/tags/${tagId}`, { name: "team" }],
      ["links:write", "POST", "/links/tags", { workspaceId: ws, codes: [code], add: ["by-key-2"] }],
      ["links:write", "DELETE", `/workspaces/${ws}/tags/${tagId}`],
    ];
    for (const [scope, method, path, body] of needs) {
      const without = await keyWith(["links:read", "links:write", "analytics:read"].filter((s) => s !== scope));
      expect(await call(method, path, { token: without, body }), `${method} ${path}`).toMatchObject({
        status: 403,
        body: { code: "permission_denied", message: expect.stringContaining(scope) },
      });
      expect((await call(method, path, { token: await keyWith([scope]), body })).status, `${method} ${path}`).toBe(200);
    }
  });
});
