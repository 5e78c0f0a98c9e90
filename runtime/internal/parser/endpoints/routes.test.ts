import { describe, expect, it } from "vitest";
import { endpointOf, fixture } from "../../../test/parser-fixtures.ts";
import { parseApp } from "../mod.ts";
import { checkRouteConflicts, parsePath } from "./routes.ts";
import type { EndpointMeta } from "../../meta/types.ts";

describe("parsePath", () => {
  it.each([
    ["/", []],
    ["/url", []],
    ["/url/:id", [{ name: "id", wildcard: false }]],
    ["/a/:x/b/:y", [{ name: "x", wildcard: false }, { name: "y", wildcard: false }]],
    ["/files/*rest", [{ name: "rest", wildcard: true }]],
    ["/!path", [{ name: "path", wildcard: true, fallback: true }]],
    ["/app/!rest", [{ name: "rest", wildcard: true, fallback: true }]],
  ])("reads %s", (path, params) => {
    expect(parsePath(path)).toEqual(params);
  });

  it.each([
    ["url", 'path "url" must start with "/"'],
    ["/a//b", 'path "/a//b" has an empty segment'],
    ["/a/", 'path "/a/" has an empty segment'],
    ["/*rest/more", 'path "/*rest/more": the wildcard "*rest" must be the last segment'],
    ["/!rest/more", 'path "/!rest/more": the fallback "!rest" must be the last segment'],
    ["/!", 'path "/!": invalid parameter name ""'],
    ["/:id/:id", 'path "/:id/:id": parameter "id" appears twice'],
    ["/:", 'path "/:": invalid parameter name ""'],
    ["/a:b", 'path "/a:b": ":", "*" and "!" may only start a segment'],
    ["/a!b", 'path "/a!b": ":", "*" and "!" may only start a segment'],
  ])("rejects %s", (path, problem) => {
    expect(parsePath(path)).toBe(problem);
  });
});

describe("fallback paths", () => {
  it("are read from api.static and kept beside a parameter and a wildcard at the same place", () => {
    const meta = parseApp(fixture("fallback"));
    const assets = endpointOf(meta, "web", "assets");
    expect([assets.path, assets.pathParams, assets.static]).toEqual([
      "/!path",
      [{ name: "path", wildcard: true, fallback: true }],
      { dir: "web/dist", notFound: "web/dist/index.html", notFoundStatus: 200 },
    ]);
    expect(endpointOf(meta, "web", "resolve").path).toBe("/:code");
  });

  const route = (name: string, path: string): EndpointMeta => ({
    service: "web", name, kind: "raw", file: "web/api.ts", line: 1, doc: null, expose: true, auth: false, methods: ["GET"],
    path, pathParams: [], tags: [], sensitive: false, request: null, response: null,
  });

  it("clash with another fallback at the same place", () => {
    expect(() => checkRouteConflicts([route("a", "/!page"), route("b", "/!path")])).toThrow(
      "web/api.ts:1: duplicate route GET /!path: endpoint web.b clashes with web.a (web/api.ts:1, path /!page)",
    );
  });
});
