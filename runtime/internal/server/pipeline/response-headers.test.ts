// A typed endpoint's Header<...> response fields, as Encore has them: parsed into the
// endpoint's metadata, sent as response headers and left out of the JSON body, and read
// back from the headers by the generated client.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { generateClient } from "../../clientgen/mod.ts";
import { config } from "../../config/mod.ts";
import type { AppMeta, EndpointMeta } from "../../meta/types.ts";
import { parseApp, toOpenAPI } from "../../parser/mod.ts";
import { endpointOf, fixture } from "../../../test/parser-fixtures.ts";
import { buildHttpServer } from "../http-server.ts";

let meta: AppMeta;
let signIn: EndpointMeta;
let server: Awaited<ReturnType<typeof buildHttpServer>>;
let url: string;
/** What the handler answers; set by each test. */
let answer: Record<string, unknown> = {};

beforeAll(async () => {
  meta = parseApp(fixture("response-headers"));
  signIn = endpointOf(meta, "sess", "signIn");
  const handler = async (params: { cookie?: string }) => ({ ...answer, token: params.cookie ?? "none" });
  server = await buildHttpServer([{ meta: signIn, handler }], {
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

describe("Header<...> fields of a response", () => {
  test("the parser lists them with their wire names, lower-case, and keeps them in the response's schema", () => {
    expect(signIn.responseHeaders).toEqual([
      { name: "sessionCookie", wireName: "set-cookie", optional: true },
      { name: "requestId", wireName: "x-request-ref", optional: false },
    ]);
    expect(Object.keys((signIn.response?.["properties"] ?? {}) as object)).toEqual(["token", "sessionCookie", "requestId"]);
  });

  test("are sent as headers and left out of the body; a request's Cookie header reaches its Header<\"Cookie\"> field", async () => {
    answer = { sessionCookie: "sid=abc; HttpOnly; Path=/", requestId: "r1" };
    const res = await fetch(`${url}/sign-in`, { method: "POST", headers: { cookie: "sid=old" }, body: "{}" });
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toBe("sid=abc; HttpOnly; Path=/");
    expect(res.headers.get("x-request-ref")).toBe("r1");
    expect(await res.json()).toEqual({ token: "sid=old" });
  });

  test("a field left undefined sends no header", async () => {
    answer = { requestId: "r2" };
    const res = await fetch(`${url}/sign-in`, { method: "POST", body: "{}" });
    expect(res.headers.has("set-cookie")).toBe(false);
    expect(res.headers.get("x-request-ref")).toBe("r2");
    expect(await res.json()).toEqual({ token: "none" });
  });

  test("a value no header can carry is an internal error, not a broken response", async () => {
    answer = { requestId: "line\nbreak" };
    const res = await fetch(`${url}/sign-in`, { method: "POST", body: "{}" });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { code: string }).code).toBe("internal");
  });

  test("the generated client reads them from the response's headers: an optional one may be missing (a browser hides Set-Cookie)", () => {
    const code = generateClient(meta, { lang: "typescript", appSlug: "fixture" });
    expect(code).toContain('rtn.sessionCookie = resp.headers.get("set-cookie") ?? undefined');
    expect(code).toContain('rtn.requestId = resp.headers.get("x-request-ref") ?? (() => { throw new Error("Header `x-request-ref` was unexpectedly null") })()');
    expect(code).toContain("return rtn");
  });

  test("the OpenAPI document has them as the response's headers, not in its body", () => {
    const doc = toOpenAPI(meta, "Sessions") as { paths: Record<string, Record<string, { responses: Record<string, Record<string, unknown>> }>> };
    const success = doc.paths["/sign-in"]!["post"]!.responses["200"]!;
    expect(success["headers"]).toEqual({
      "set-cookie": { required: false, schema: { type: "string" }, description: "Sent as a Set-Cookie header, not in the body." },
      "x-request-ref": { required: true, schema: { type: "string" } },
    });
    const body = (success["content"] as Record<string, { schema: { properties: object } }>)["application/json"]!.schema;
    expect(Object.keys(body.properties)).toEqual(["token"]);
  });
});
