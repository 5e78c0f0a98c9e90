// A typed endpoint's HttpStatus response field, as Encore has it (tsparser's WireLocation::HttpStatus,
// runtimes/core/src/api/schema/httpstatus.rs): its value is the answer's status, and the field is
// in neither the body, the generated clients nor the OpenAPI document.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { generateClient } from "../../clientgen/mod.ts";
import { config } from "../../config/mod.ts";
import type { AppMeta, EndpointMeta } from "../../meta/types.ts";
import { parseApp, toOpenAPI } from "../../parser/mod.ts";
import { endpointOf, fixture } from "../../../test/parser-fixtures.ts";
import { buildHttpServer } from "../http-server.ts";

let meta: AppMeta;
let create: EndpointMeta;
let server: Awaited<ReturnType<typeof buildHttpServer>>;
let url: string;
/** What the handler answers; set by each test. */
let answer: Record<string, unknown> = {};

beforeAll(async () => {
  meta = parseApp(fixture("response-headers"));
  create = endpointOf(meta, "sess", "createSession");
  server = await buildHttpServer([{ meta: create, handler: async () => answer }], {
    appRoot: process.cwd(),
    exposeInternalErrors: false,
    pubsubAdminToken: null,
    objects: config().objects,
    trustProxy: false,
  });
  await server.listen({ host: "127.0.0.1", port: 0 });
  const address = server.server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(async () => {
  await server.close();
});

const post = () => fetch(`${url}/sessions`, { method: "POST", body: "{}" });

describe("an HttpStatus field of a response", () => {
  test("the parser names it and leaves it out of the response's schema", () => {
    expect(create.httpStatusField).toBe("status");
    expect(create.response?.["properties"]).toEqual({ id: { type: "string" } });
    expect(create.response?.["required"]).toEqual(["id"]);
  });

  test("sets the answer's status, and the body holds the other fields, as JSON", async () => {
    answer = { id: "s1", status: 201 };
    const res = await post();
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.json()).toEqual({ id: "s1" });
  });

  test("left undefined, it leaves the status at 200", async () => {
    answer = { id: "s2" };
    const res = await post();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: "s2" });
  });

  test.each([
    [700, "HTTP status field 'status' must be a between 100 and 599, got: 700"],
    [20.5, "HTTP status field 'status' must be a positive integer"],
    ["201", "HTTP status field 'status' must be a number, got: string"],
    [null, "HTTP status field 'status' must be a number, got: null"],
  ])("%j is refused as Encore refuses it", async (status, why) => {
    answer = { id: "s3", status };
    const res = await post();
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: "invalid_argument", message: `invalid http status code: ${why}`, details: null });
  });

  test("the generated client's type has no status field, as Encore's client has none", () => {
    const code = generateClient(meta, { lang: "typescript", appSlug: "fixture" });
    const created = /export interface Created \{[^}]*\}/.exec(code)?.[0];
    expect(created).toContain("id: string");
    expect(created).not.toContain("status");
  });

  test("the OpenAPI document's body has no status field", () => {
    const doc = toOpenAPI(meta, "Sessions") as { paths: Record<string, Record<string, { responses: Record<string, Record<string, unknown>> }>> };
    const success = doc.paths["/sessions"]!["post"]!.responses["200"]!;
    const body = (success["content"] as Record<string, { schema: { properties: object } }>)["application/json"]!.schema;
    expect(Object.keys(body.properties)).toEqual(["id"]);
  });
});
