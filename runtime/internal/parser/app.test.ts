import path from "node:path";
import { describe, expect, it } from "vitest";
import { endpointOf, TESTDATA } from "../../test/parser-fixtures.ts";
import { parseApp } from "./mod.ts";

const APP_ROOT = path.resolve(TESTDATA, "../../../..");

describe("the real app", () => {
  const meta = parseApp(APP_ROOT);

  it("finds the urlb service", () => {
    expect(meta.services.map((s) => [s.name, s.dir])).toContainEqual(["urlb", "urlb"]);
  });

  it("reads shorten as an exposed POST /url with a url body", () => {
    const shorten = endpointOf(meta, "urlb", "shorten");
    expect(shorten).toMatchObject({ kind: "typed", methods: ["POST"], path: "/url", expose: true, file: "urlb/url.ts" });
    expect(shorten.request?.fields).toEqual([
      { name: "url", location: "body", wireName: "url", optional: false },
      { name: "forwardedFor", location: "header", wireName: "x-forwarded-for", optional: true },
    ]);
    expect(shorten.request?.body).toEqual({
      type: "object",
      properties: { url: { type: "string", description: "The long URL to store." } },
      required: ["url"],
    });
    expect(shorten.response?.["required"]).toEqual(["id", "url"]);
  });

  it("reads get as GET /url/:id with a path parameter", () => {
    const get = endpointOf(meta, "urlb", "get");
    expect(get).toMatchObject({ methods: ["GET"], path: "/url/:id", expose: true, pathParams: [{ name: "id", wildcard: false }] });
    expect(get.request?.fields).toEqual([{ name: "id", location: "path", wireName: "id", optional: false }]);
    expect(get.request?.path).toEqual({ type: "object", properties: { id: { type: "string" } }, required: ["id"] });
    expect([get.request?.query, get.request?.body, get.request?.headers]).toEqual([null, null, null]);
  });

  it("reads list as an internal GET /url without a request", () => {
    const list = endpointOf(meta, "urlb", "list");
    expect(list).toMatchObject({ methods: ["GET"], path: "/url", expose: false, request: null });
    expect(list.response?.["properties"]).toHaveProperty("urls.type", "array");
  });

  it("reads the urlb database and its migrations folder", () => {
    expect(meta.databases).toContainEqual({
      name: "urlb",
      service: "urlb",
      migrationsDir: "urlb/migrations",
      migrationsSource: "sql",
      usedBy: ["urlb"],
      declaredIn: { file: "urlb/url.ts", line: 9 },
    });
  });

  it("reads url-shortened's message type as JSON Schema, its Date as a date-time", () => {
    const { message } = meta.topics.find((t) => t.name === "url-shortened")!;
    expect(message).toMatchObject({
      type: "object",
      properties: { code: { type: "string" }, originalUrl: { type: "string" }, timestamp: { type: "string", format: "date-time", "x-encore-type": "date" } },
      required: ["code", "originalUrl", "timestamp"],
    });
  });

  it("knows links publishes url-shortened and calls url and workspaces, analytics subscribes to it and calls both, and urlb calls nobody", () => {
    expect(meta.topics.find((t) => t.name === "url-shortened")).toMatchObject({ service: "links", publishers: ["links"] });
    expect(meta.subscriptions).toContainEqual(expect.objectContaining({ name: "track-analytics", service: "analytics", topic: "url-shortened" }));
    const calls = Object.fromEntries(meta.services.map((s) => [s.name, s.calls]));
    // A topic declared in one service and published by another: the mail service's outgoing-mail.
    expect(meta.topics.find((t) => t.name === "outgoing-mail")).toMatchObject({ service: "mail", publishers: expect.arrayContaining(["users"]) });
    expect(meta.subscriptions).toContainEqual(expect.objectContaining({ name: "send-mail", service: "mail", topic: "outgoing-mail" }));
    expect(calls).toMatchObject({ analytics: ["url", "workspaces"], auth: ["users"], links: ["url", "workspaces"], moderation: ["links", "users"], transfers: ["analytics", "links", "workspaces"], urlb: [], webhooks: ["users", "workspaces"], workspaces: [] });
    expect(meta.subscriptions).toContainEqual(expect.objectContaining({ name: "run-imports", service: "transfers", topic: "import-jobs" }));
  });
});
