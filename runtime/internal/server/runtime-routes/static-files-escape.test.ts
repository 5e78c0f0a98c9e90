// api.static serves what is in its folder and nothing else: no dotfiles, nothing a symlink
// leads to outside the folder, however the path is spelt. Each refusal is the answer to
// a missing file (the notFound page, or 404 "file not found"), so it tells nothing apart.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { config } from "../../config/mod.ts";
import type { EndpointMeta, StaticMeta } from "../../meta/types.ts";
import type { Endpoint } from "../../registry/endpoints.ts";
import { buildHttpServer } from "../http-server.ts";

function files(name: string, routePath: string, settings: StaticMeta): Endpoint {
  const meta: EndpointMeta = {
    service: "web", name, kind: "static", file: "web/static.ts", line: 1, doc: null, expose: true, auth: false,
    methods: ["GET", "HEAD"], path: routePath, pathParams: [{ name: "path", wildcard: true }],
    tags: [], sensitive: false, request: null, response: null, static: settings,
  };
  return { meta, handler: {} };
}

// root/site is served; root/outside and root/secret.txt are not.
const root = mkdtempSync(path.join(tmpdir(), "static-escape-"));
const site = path.join(root, "site");
for (const dir of ["site/.git", "site/sub", "outside", "outside-with-index"]) mkdirSync(path.join(root, dir), { recursive: true });
writeFileSync(path.join(root, "secret.txt"), "SECRET FILE");
writeFileSync(path.join(root, "outside", "secret.txt"), "SECRET IN FOLDER");
writeFileSync(path.join(root, "outside-with-index", "index.html"), "SECRET INDEX");
writeFileSync(path.join(site, "app.js"), "app()");
writeFileSync(path.join(site, "sub", "index.html"), "sub index");
writeFileSync(path.join(site, "404.html"), "no such page");
writeFileSync(path.join(site, ".env"), "SECRET DOTFILE");
writeFileSync(path.join(site, ".git", "config"), "SECRET DOT-FOLDER");
symlinkSync(path.join(root, "secret.txt"), path.join(site, "leak.txt"));
symlinkSync(path.join(root, "outside"), path.join(site, "out"));
symlinkSync(path.join(root, "outside-with-index"), path.join(site, "out-index"));
symlinkSync(path.join(root, "outside-with-index", "index.html"), path.join(site, "sub", "linked-index.html"));
symlinkSync("app.js", path.join(site, "alias.js")); // inside the folder: served
symlinkSync(site, path.join(root, "site-link")); // a folder served through a symlink to it

const endpoints = [
  files("site", "/site/*path", { dir: "site", notFound: "site/404.html" }),
  files("plain", "/plain/*path", { dir: "site" }),
  files("linked", "/linked/*path", { dir: "site-link" }),
];

let port = 0;
let close: () => Promise<void>;
beforeAll(async () => {
  const server = await buildHttpServer(endpoints, { ...config(), appRoot: root, pubsubAdminToken: null });
  await server.listen({ host: "127.0.0.1", port: 0 });
  const address = server.server.address();
  port = typeof address === "object" && address ? address.port : 0;
  close = () => server.close();
});
afterAll(async () => {
  await close();
  rmSync(root, { recursive: true, force: true });
});

/** A GET with the path sent exactly as written: fetch would resolve %2e%2e and ./ first. */
function get(rawPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: rawPath }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const refused = [
  ["a symlink to a file outside the folder", "/leak.txt"],
  ["a symlink to a folder outside, a file in it", "/out/secret.txt"],
  ["a symlink to a folder outside, its index", "/out-index/"],
  ["a symlink to a folder outside, without the slash", "/out-index"],
  ["a symlinked index.html leading outside", "/sub/linked-index.html"],
  ["a dotfile", "/.env"],
  ["a file in a dot-folder", "/.git/config"],
  ["a dot-folder itself", "/.git/"],
  ["a dotfile, percent-encoded", "/%2eenv"],
  ["a dotfile, percent-encoded in capitals", "/%2Eenv"],
  ["a dot-folder, percent-encoded", "/%2egit/config"],
  ["a dot-folder with an encoded slash", "/.git%2fconfig"],
  ["a dotfile after an encoded slash", "/sub%2f..%2f.env"],
  ["a dotfile, encoded twice", "/%252eenv"],
  ["a symlinked folder with an encoded slash", "/out%2fsecret.txt"],
  ["a step up", "/../secret.txt"],
  ["a step up, percent-encoded", "/%2e%2e/secret.txt"],
  ["a step up, with an encoded slash", "/..%2fsecret.txt"],
  ["a step up from a subfolder", "/sub/%2e%2e/%2e%2e/secret.txt"],
  ["a step up between backslashes", "/\\..\\secret.txt"],
  ["a step up between encoded backslashes", "/%5c..%5csecret.txt"],
] as const;

describe("a static folder refuses what is not its own file", () => {
  test.each(refused)("%s (%s) is answered as a missing file, with the notFound page", async (_what, rest) => {
    const res = await get(`/site${rest}`);
    expect(res).toEqual({ status: 404, body: "no such page" });
  });

  test.each(refused)("%s (%s), without notFound, is 404 file not found", async (_what, rest) => {
    const res = await get(`/plain${rest}`);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toEqual({ code: "not_found", message: "file not found", details: null });
  });
});

test("a path that is not percent-encoded UTF-8 is 400 invalid_argument in Encore's format", async () => {
  for (const rest of ["/%ff", "/%c0%ae%c0%ae/secret.txt"]) {
    const res = await get(`/site${rest}`);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ code: "invalid_argument", message: expect.stringMatching(/^invalid request path/), details: null });
  }
});

describe("what stays inside the folder is served", () => {
  test("a file, a symlink to a file in the folder, and a subfolder's index", async () => {
    expect(await get("/site/app.js")).toEqual({ status: 200, body: "app()" });
    expect(await get("/site/alias.js")).toEqual({ status: 200, body: "app()" });
    expect(await get("/site/sub/")).toEqual({ status: 200, body: "sub index" });
    expect(await get("/site/%61pp.js")).toEqual({ status: 200, body: "app()" });
  });

  test("a folder that is itself reached through a symlink", async () => {
    expect(await get("/linked/app.js")).toEqual({ status: 200, body: "app()" });
    expect((await get("/linked/leak.txt")).status).toBe(404);
  });
});
