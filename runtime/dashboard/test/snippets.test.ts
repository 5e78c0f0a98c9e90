// The explorer's "Copy as curl" and "Copy as TypeScript" texts, from catalog entries
// shaped as the dashboard's API sends them.
import { execFileSync } from "node:child_process";
import { describe, expect, test } from "vitest";
import type { CatalogEndpoint, CatalogField, ExplorerRequest } from "../../internal/dashboard/api.ts";
import { curlCommand, literal, pathArguments, shellQuote, typescriptCall } from "../src/snippets.ts";

function endpoint(overrides: Partial<CatalogEndpoint> & { fields?: CatalogField[] }): CatalogEndpoint {
  const { fields, ...rest } = overrides;
  return {
    service: "url",
    name: "shorten",
    kind: "typed",
    methods: ["POST"],
    path: "/shorten",
    expose: true,
    auth: false,
    doc: null,
    tags: [],
    source: "url/shorten.ts:1",
    request: fields ? { fields, type: "{}" } : null,
    response: "{ code: string }",
    example: { method: "POST", path: "/shorten", query: [], headers: {}, body: null },
    ...rest,
  };
}

const field = (name: string, location: CatalogField["location"], type = "string", wireName = name): CatalogField => ({
  name,
  location,
  wireName,
  optional: false,
  type,
  doc: null,
});

const request = (r: Partial<ExplorerRequest>): ExplorerRequest => ({ method: "POST", path: "/shorten", query: [], headers: {}, body: null, ...r });

describe("curlCommand", () => {
  test("a JSON body, a query string, headers and a bearer token, quoted for the shell", () => {
    const text = curlCommand(
      "http://localhost:4000/",
      endpoint({}),
      request({ query: [["tag", "it's"], ["n", "1"]], headers: { "X-Trace": "a b" }, body: '{"url":"https://e.com/?a=1&b=2"}' }),
      { kind: "bearer", token: "tok" },
    );
    expect(text).toBe(
      [
        "curl -X POST 'http://localhost:4000/shorten?tag=it%27s&n=1'",
        "-H 'X-Trace: a b'",
        "-H 'Content-Type: application/json'",
        "-H 'Authorization: Bearer tok'",
        `--data '{"url":"https://e.com/?a=1&b=2"}'`,
      ].join(" \\\n  "),
    );
  });

  test("a GET without a body names no method", () => {
    expect(curlCommand("http://localhost:4000", endpoint({ methods: ["GET"] }), request({ method: "GET", path: "/abc" }), { kind: "none" })).toBe("curl http://localhost:4000/abc");
  });

  test("an internal endpoint has no curl command: the app refuses it from outside", () => {
    expect(curlCommand("http://localhost:4000", endpoint({ expose: false }), request({}), { kind: "none" })).toBeNull();
  });

  test("shellQuote survives a round trip through sh", () => {
    const nasty = `it's "quoted" $HOME \`id\` \\ end`;
    expect(execFileSync("sh", ["-c", `printf %s ${shellQuote(nasty)}`], { encoding: "utf8" })).toBe(nasty);
    expect(shellQuote("plain/path-1.0")).toBe("plain/path-1.0");
  });
});

describe("typescriptCall", () => {
  test("body fields become the params object", () => {
    const text = typescriptCall(endpoint({ fields: [field("url", "body")] }), request({ body: '{"url":"https://e.com"}' }));
    expect(text).toBe('const response = await client.url.shorten({\n  url: "https://e.com",\n})');
  });

  test("path parameters come first, then query and header fields typed from their text", () => {
    const e = endpoint({
      service: "orders",
      name: "list",
      methods: ["GET"],
      path: "/orders/:id/items/*rest",
      fields: [field("id", "path", "number"), field("rest", "path"), field("limit", "query", "number"), field("tags", "query", "string[]", "tag"), field("requestId", "header", "string", "x-request-id")],
    });
    const text = typescriptCall(e, request({ method: "GET", path: "/orders/42/items/a/b%20c", query: [["limit", "10"], ["tag", "x"], ["tag", "y"]], headers: { "X-Request-Id": "r1" } }));
    expect(text).toBe('const response = await client.orders.list(42, [\n  "a",\n  "b c",\n], {\n  limit: 10,\n  tags: [\n    "x",\n    "y",\n  ],\n  requestId: "r1",\n})');
  });

  test("an endpoint that answers nothing is awaited without a variable; names that are not identifiers are indexed", () => {
    const text = typescriptCall(endpoint({ service: "my-svc", response: null }), request({}));
    expect(text).toBe('await client["my-svc"].shorten()');
  });

  test("an internal endpoint is called through ~encore/clients with its whole parameter object", () => {
    const e = endpoint({ expose: false, path: "/url/:id", fields: [field("id", "path"), field("note", "body")] });
    const text = typescriptCall(e, request({ path: "/url/abc", body: '{"note":"hi"}' }));
    expect(text).toContain('import { url } from "~encore/clients";');
    expect(text).toContain('await url.shorten({\n  id: "abc",\n  note: "hi",\n})');
  });

  test("a raw endpoint takes the method, its path arguments and the body", () => {
    const e = endpoint({ kind: "raw", path: "/hook/:name", response: null, fields: [field("name", "path")] });
    expect(typescriptCall(e, request({ path: "/hook/gh", body: '{"a":1}' }))).toBe('const response = await client.url.shorten("POST", "gh", JSON.stringify({\n  a: 1,\n}))');
  });
});

test("pathArguments reads each parameter from the requested path, a wildcard as its segments", () => {
  expect([...pathArguments("/a/:id/*rest", "/a/x%2Fy/1/2").values()]).toEqual([
    { field: "id", value: "x/y" },
    { field: "rest", value: ["1", "2"] },
  ]);
});

test("literal writes JSON values as JavaScript, quoting keys only where needed", () => {
  expect(literal({ a: [], "b-c": {}, d: null })).toBe('{\n  a: [],\n  "b-c": {},\n  d: null,\n}');
});
