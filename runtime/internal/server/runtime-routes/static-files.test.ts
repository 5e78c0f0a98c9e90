// api.static on a real server: files, and what answers a path with no file behind it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { config } from "../../config/mod.ts";
import type { EndpointMeta, StaticMeta } from "../../meta/types.ts";
import type { Endpoint } from "../../registry/endpoints.ts";
import { buildHttpServer } from "../http-server.ts";

function files(name: string, routePath: string, settings: StaticMeta): Endpoint {
  const param = routePath.match(/[*!]([A-Za-z_]+)$/)?.[1] ?? "path";
  const meta: EndpointMeta = {
    service: "web", name, kind: "static", file: "web/static.ts", line: 1, doc: null, expose: true, auth: false,
    methods: ["GET", "HEAD"], path: routePath,
    pathParams: [routePath.includes("/!") ? { name: param, wildcard: true, fallback: true } : { name: param, wildcard: true }],
    tags: [], sensitive: false, request: null, response: null, static: settings,
  };
  return { meta, handler: {} };
}

const root = mkdtempSync(path.join(tmpdir(), "static-"));
for (const dir of ["site", "spa", "gone"]) mkdirSync(path.join(root, dir));
writeFileSync(path.join(root, "site", "app.js"), "console.log(1)");
writeFileSync(path.join(root, "site", "404.html"), "<h1>no such page</h1>");
writeFileSync(path.join(root, "spa", "index.html"), "<div id=app></div>");
writeFileSync(path.join(root, "spa", "main.js"), "mount()");
writeFileSync(path.join(root, "gone", "404.html"), "removed after start");

const securityHeaders = {
  "Content-Security-Policy": "default-src 'none'",
  "X-Frame-Options": "DENY",
  "Cache-Control": "public, max-age=3600",
  "Link": ["</a.css>; rel=preload", "</b.js>; rel=preload"],
};

const endpoints = [
  files("site", "/site/*path", { dir: "site", notFound: "site/404.html" }),
  files("teapot", "/teapot/*path", { dir: "site", notFound: "site/404.html", notFoundStatus: 418 }),
  files("plain", "/plain/*path", { dir: "site" }),
  files("gone", "/gone/*path", { dir: "gone", notFound: "gone/404.html" }),
  files("spa", "/!path", { dir: "spa", notFound: "spa/index.html", notFoundStatus: 200 }),
  files("headed", "/headed/*path", { dir: "site", notFound: "site/404.html", headers: securityHeaders }),
  files("headed-plain", "/headed-plain/*path", { dir: "site", headers: securityHeaders }),
];

let url = "";
let close: () => Promise<void>;
beforeAll(async () => {
  const server = await buildHttpServer(endpoints, { ...config(), appRoot: root, pubsubAdminToken: null });
  await server.listen({ host: "127.0.0.1", port: 0 });
  const address = server.server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  close = () => server.close();
  rmSync(path.join(root, "gone", "404.html"));
});
afterAll(async () => {
  await close();
  rmSync(root, { recursive: true, force: true });
});

describe("a static endpoint", () => {
  test("serves its files", async () => {
    const res = await fetch(`${url}/site/app.js`);
    expect([res.status, await res.text()]).toEqual([200, "console.log(1)"]);
  });

  test("answers a missing file with its notFound file, as 404 by default, without cache validators", async () => {
    const res = await fetch(`${url}/site/nope.html`);
    expect([res.status, await res.text()]).toEqual([404, "<h1>no such page</h1>"]);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect([res.headers.get("etag"), res.headers.get("last-modified")]).toEqual([null, null]);
  });

  test("uses notFoundStatus for it", async () => {
    const res = await fetch(`${url}/teapot/deep/nope`);
    expect([res.status, await res.text()]).toEqual([418, "<h1>no such page</h1>"]);
  });

  test("sends the notFound page whole even to a conditional or ranged request", async () => {
    const res = await fetch(`${url}/site/nope.html`, { headers: { "if-none-match": "*", range: "bytes=0-3", "cache-control": "max-age=0" } });
    expect([res.status, await res.text()]).toEqual([404, "<h1>no such page</h1>"]);
  });

  test("without notFound, answers 404 file not found in Encore's error format", async () => {
    const res = await fetch(`${url}/plain/nope.js`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: "not_found", message: "file not found", details: null });
  });

  test("whose notFound file has gone missing answers 404 file not found", async () => {
    const res = await fetch(`${url}/gone/nope.js`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: "not_found", message: "file not found", details: null });
  });
});

describe("a single-page app on a fallback path with notFoundStatus 200", () => {
  test("serves its files and its page at the root", async () => {
    expect(await (await fetch(`${url}/main.js`)).text()).toBe("mount()");
    const page = await fetch(`${url}/`);
    expect([page.status, await page.text()]).toEqual([200, "<div id=app></div>"]);
  });

  test("answers any unknown path with its page as 200, with validators a browser may revalidate", async () => {
    const res = await fetch(`${url}/orders/42/edit`);
    expect([res.status, await res.text()]).toEqual([200, "<div id=app></div>"]);
    const etag = res.headers.get("etag");
    expect(etag).toBeTruthy();
    // fetch adds "cache-control: no-cache" to a conditional request unless one is given.
    const again = await fetch(`${url}/orders/42/edit`, { headers: { "if-none-match": etag!, "cache-control": "max-age=0" } });
    expect(again.status).toBe(304);
  });

  test("leaves the other static folders their own answers", async () => {
    expect((await fetch(`${url}/site/nope.html`)).status).toBe(404);
  });
});

describe("headers", () => {
  const expectHeaders = (res: Response) => {
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("link")).toBe("</a.css>; rel=preload, </b.js>; rel=preload");
  };

  test("go with every file, and replace the runtime's own Cache-Control, which Encore does not send", async () => {
    const res = await fetch(`${url}/headed/app.js`);
    expect([res.status, await res.text()]).toEqual([200, "console.log(1)"]);
    expectHeaders(res);
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
  });

  test("go with a 304 and a HEAD", async () => {
    const etag = (await fetch(`${url}/headed/app.js`)).headers.get("etag")!;
    const again = await fetch(`${url}/headed/app.js`, { headers: { "if-none-match": etag, "cache-control": "max-age=0" } });
    expect(again.status).toBe(304);
    expectHeaders(again);
    expectHeaders(await fetch(`${url}/headed/app.js`, { method: "HEAD" }));
  });

  test("go with the notFound page, as Encore sends them with its fallback file", async () => {
    const res = await fetch(`${url}/headed/nope.html`);
    expect([res.status, await res.text()]).toEqual([404, "<h1>no such page</h1>"]);
    expectHeaders(res);
  });

  test("do not go with the JSON error of a folder without notFound", async () => {
    const res = await fetch(`${url}/headed-plain/nope.js`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-security-policy")).toBeNull();
  });
});
