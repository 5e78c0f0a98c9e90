import { beforeAll, describe, expect, it } from "vitest";
import type { AppMeta } from "../../meta/types.ts";
import { endpointOf, fixture } from "../../../test/parser-fixtures.ts";
import { parseApp } from "../mod.ts";

let meta: AppMeta;
beforeAll(() => {
  meta = parseApp(fixture("locations"));
});

const date = { type: "string", format: "date-time", "x-encore-type": "date" };

describe("field locations", () => {
  it("reads every field of a GET request from the query string", () => {
    const request = endpointOf(meta, "loc", "search").request;
    expect(request?.fields.map((f) => [f.name, f.location, f.wireName, f.optional])).toEqual([
      ["term", "query", "term", false],
      ["limit", "query", "limit", true],
      ["tags", "query", "tags", false],
      ["since", "query", "since", false],
      ["kind", "query", "kind", false],
    ]);
    expect(request?.query).toEqual({
      type: "object",
      properties: {
        term: { type: "string" },
        limit: { type: "number" },
        tags: { type: "array", items: { type: "string" } },
        since: date,
        kind: { type: "string", enum: ["a", "b"] },
      },
      required: ["term", "tags", "since", "kind"],
    });
    expect([request?.path, request?.headers, request?.body]).toEqual([null, null, null]);
  });

  it("splits a PUT request into path, header, query and body", () => {
    const request = endpointOf(meta, "loc", "update").request;
    expect(request?.fields.map((f) => [f.name, f.location, f.wireName])).toEqual([
      ["id", "path", "id"],
      ["title", "body", "title"],
      ["token", "header", "authorization"],
      ["count", "header", "x-count"],
      ["plain", "header", "plain"],
      ["requestId", "header", "x-request-id"],
      ["dryRun", "query", "dry_run"],
      ["q", "query", "q"],
      ["pages", "query", "pages"],
    ]);
    expect(request?.path).toEqual({ type: "object", properties: { id: { type: "number" } }, required: ["id"] });
    expect(request?.headers).toEqual({
      type: "object",
      properties: {
        authorization: { type: "string" },
        "x-count": { type: "number" },
        plain: { type: "string" },
        "x-request-id": { type: "string" },
      },
      required: ["authorization", "x-count", "plain", "x-request-id"],
    });
    expect(request?.query).toEqual({
      type: "object",
      properties: { dry_run: { type: "boolean" }, q: { type: "string" }, pages: { type: "array", items: { type: "number" } } },
      required: ["q", "pages"],
    });
    expect(request?.body).toEqual({ type: "object", properties: { title: { type: "string" } }, required: ["title"] });
  });

  it("keys the full schema by property name, not wire name", () => {
    const full = endpointOf(meta, "loc", "update").request?.full;
    expect(Object.keys(full?.["properties"] as object)).toEqual([
      "id", "title", "token", "count", "plain", "requestId", "dryRun", "q", "pages",
    ]);
    expect(full?.["required"]).toEqual(["id", "title", "token", "count", "plain", "requestId", "q", "pages"]);
  });

  it("reads DELETE fields from path and query", () => {
    const endpoint = endpointOf(meta, "loc", "remove");
    expect(endpoint.pathParams).toEqual([
      { name: "id", wildcard: false },
      { name: "version", wildcard: false },
    ]);
    expect(endpoint.request?.path).toEqual({
      type: "object",
      properties: { id: { type: "string" }, version: { type: "number" } },
      required: ["id", "version"],
    });
    expect(endpoint.request?.query).toEqual({ type: "object", properties: { reason: { type: "string" } } });
    expect(endpoint.request?.body).toBeNull();
  });

  it("reads a wildcard path parameter and sends the rest of a * endpoint in the body", () => {
    const endpoint = endpointOf(meta, "loc", "anyMethod");
    expect(endpoint.methods).toEqual(["*"]);
    expect(endpoint.pathParams).toEqual([{ name: "rest", wildcard: true }]);
    expect(endpoint.request?.fields.map((f) => f.location)).toEqual(["path", "body"]);
    // Absent when it matched nothing ("/rest/" for "/rest/*rest"), as in Encore: not required on the wire.
    expect(endpoint.request?.path).not.toHaveProperty("required");
  });

  it("uses the query string when any method lacks a body", () => {
    const endpoint = endpointOf(meta, "loc", "mixed");
    expect(endpoint.methods).toEqual(["GET", "POST"]);
    expect(endpoint.request?.fields.map((f) => f.location)).toEqual(["query"]);
  });
});

describe("endpoint options", () => {
  it("applies Encore's defaults", () => {
    const endpoint = endpointOf(meta, "loc", "defaults");
    expect(endpoint).toMatchObject({
      kind: "typed",
      methods: ["POST"],
      path: "/loc.defaults",
      expose: false,
      auth: false,
      tags: [],
      sensitive: false,
      pathParams: [],
    });
    expect("bodyLimit" in endpoint).toBe(false);
    expect(endpoint.request?.body).toEqual({ type: "object", properties: { a: { type: "string" } }, required: ["a"] });
    expect(endpoint.response).toEqual({ type: "object", properties: { b: { type: "string" } }, required: ["b"] });
  });

  it("reads literal options, including constant arithmetic", () => {
    expect(endpointOf(meta, "loc", "tuned")).toMatchObject({
      methods: ["PATCH"],
      path: "/tuned",
      bodyLimit: 10 * 1024 * 1024,
      tags: ["x", "y"],
      sensitive: true,
      auth: true,
      request: null,
      response: null,
    });
    expect(endpointOf(meta, "loc", "unlimited").bodyLimit).toBeNull();
  });

  it("reads raw endpoints through a namespace import", () => {
    expect(endpointOf(meta, "loc", "hook")).toMatchObject({
      kind: "raw",
      methods: ["*"],
      path: "/hook",
      expose: true,
      file: "loc/sub/raw.ts",
      line: 3,
      request: null,
      response: null,
    });
  });

  it("resolves static folders against the declaring file", () => {
    expect(endpointOf(meta, "loc", "assets")).toMatchObject({
      kind: "static",
      methods: ["GET", "HEAD"],
      path: "/static/*path",
      pathParams: [{ name: "path", wildcard: true }],
      request: null,
      response: null,
      static: {
        dir: "loc/public",
        notFound: "loc/public/404.html",
        notFoundStatus: 404,
        headers: { "Cache-Control": "no-cache" },
      },
    });
  });

  it("follows renamed imports of api and Service", () => {
    const other = meta.services.find((s) => s.name === "other");
    expect(other?.dir).toBe("other");
    expect(other?.endpoints.map((e) => [e.name, e.methods, e.path, e.request, e.response])).toEqual([
      ["ping", ["GET"], "/ping", null, null],
    ]);
  });

  it("orders services by name and endpoints by file, then position", () => {
    expect(meta.services.map((s) => [s.name, s.endpoints.map((e) => e.name)])).toEqual([
      ["loc", ["search", "update", "remove", "anyMethod", "mixed", "defaults", "tuned", "unlimited", "hook", "assets"]],
      ["other", ["ping"]],
    ]);
  });
});
