// Variant B over real HTTP: what a client of the deployed service sees.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { urlb } from "~encore/clients";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

function post(path: string, body: string | Buffer, headers: Record<string, string> = {}) {
  return fetch(server.url + path, { method: "POST", body, headers });
}

describe("POST /url and GET /url/:id", () => {
  test("a shortened URL comes back by its id", async () => {
    const created = await post("/url", JSON.stringify({ url: "https://encore.dev" }));
    expect(created.status).toBe(200);
    const body = (await created.json()) as { id: string; url: string };
    expect(body.url).toBe("https://encore.dev");
    expect(body.id).toMatch(/^[A-Za-z0-9_-]{8}$/);

    const fetched = await fetch(`${server.url}/url/${body.id}`);
    expect(fetched.status).toBe(200);
    expect(await fetched.json()).toEqual(body);
  });

  test("a JSON body labelled as a form, as curl -d sends it, is accepted", async () => {
    const res = await post("/url", '{"url":"https://example.org"}', {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ url: "https://example.org" });
  });

  test("an unknown id is 404 not_found in Encore's error format", async () => {
    const res = await fetch(`${server.url}/url/AAAAAAAA`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ code: "not_found", message: "url not found", details: null });
  });
});

describe("bad input is 400 invalid_argument, naming the problem", () => {
  const cases: [string, string | Buffer, RegExp][] = [
    ["a number where a string is declared", '{"url": 123}', /url: invalid type: integer `123`, expected a string/],
    ["a boolean where a string is declared", '{"url": true}', /url: invalid type: boolean `true`, expected a string/],
    ["a missing field", "{}", /missing field url/],
    ["an empty body", "", /missing field url/],
    ["malformed JSON", '{"url": ', /not valid JSON/],
    ["an array body", "[1,2]", /invalid type: sequence, expected a JSON object/],
    ["a string body", '"https://x.y"', /invalid type: string "https:\/\/x.y", expected a JSON object/],
    ["a null body", "null", /invalid type: Option value, expected a JSON object/],
    ["invalid UTF-8", Buffer.from([0x7b, 0x22, 0x75, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), /not valid UTF-8/],
    ["a prototype-poisoning key", '{"url":"https://x.y","__proto__":{"admin":true}}', /not valid JSON/],
  ];
  test.each(cases)("%s", async (_name, body, message) => {
    const res = await post("/url", body);
    expect(res.status).toBe(400);
    const err = (await res.json()) as { code: string; message: string; details: unknown };
    expect(err.code).toBe("invalid_argument");
    expect(err.message).toMatch(message);
    expect(err.details).toBeNull();
  });

  test("nothing is stored by a rejected request", async () => {
    const before = (await urlb.list()).urls.length;
    await post("/url", '{"url": 123}');
    expect((await urlb.list()).urls.length).toBe(before);
  });
});

describe("routing", () => {
  test("an unknown route is 404 not_found", async () => {
    const res = await fetch(`${server.url}/no/such/route`, { method: "POST" });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "not_found" });
  });

  // GET and HEAD of a path no endpoint takes reach the web front end's fallback route
  // (web/static.ts), which answers a missing file with its not-found page, still a 404.
  test("an unknown page is 404 with the web front end's not-found page", async () => {
    const res = await fetch(`${server.url}/no/such/route`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await res.text()).toContain("npm run build:web");
  });

  test("the unexposed list endpoint is unreachable from outside", async () => {
    const res = await fetch(`${server.url}/url`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "not_found" });
  });

  test("the unexposed list endpoint is callable through ~encore/clients", async () => {
    const created = (await (await post("/url", '{"url":"https://list.me"}')).json()) as { id: string };
    const { urls } = await urlb.list();
    expect(urls).toContainEqual({ id: created.id, url: "https://list.me" });
  });

  test("a body over the 2 MiB default is refused with 413, not a 500", async () => {
    const big = JSON.stringify({ url: "https://x.y/" + "a".repeat(2 * 1024 * 1024) });
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${server.url}/url`, { method: "POST" }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end(big);
    });
    expect(status).toBe(413);
  });

  test("GET /healthz reports the database ready", async () => {
    await urlb.list(); // opens the database
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    // Every database opened so far is reported; loading the app opens some (drizzle's connection strings).
    const body = (await res.json()) as { status: string; databases: Record<string, string> };
    expect(body.status).toBe("ok");
    expect(body.databases.urlb).toBe("ok");
    expect(Object.values(body.databases).every((state) => state === "ok")).toBe(true);
  });
});
