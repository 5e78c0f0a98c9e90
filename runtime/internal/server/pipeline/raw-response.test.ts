// Raw handlers written for Encore, on a real server: the response accepts what Encore's
// raw response accepts, on the raw fast lane (GET) and through Fastify (POST) alike.
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { config } from "../../config/mod.ts";
import type { EndpointMeta } from "../../meta/types.ts";
import type { Endpoint } from "../../registry/endpoints.ts";
import { buildHttpServer } from "../http-server.ts";

function raw(name: string, methods: string[], path: string, handler: (req: IncomingMessage, res: ServerResponse) => void): Endpoint {
  const meta: EndpointMeta = {
    service: "svc",
    name,
    kind: "raw",
    file: "svc/api.ts",
    line: 1,
    doc: null,
    expose: true,
    auth: false,
    methods,
    path,
    pathParams: [],
    tags: [],
    sensitive: false,
    request: null,
    response: null,
  };
  return { meta, handler };
}

/** What an Express-style handler does: headers set, unset, written, then written again. */
function lenientHandler(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader("x-kept", "yes");
  res.setHeader("x-dropped", "soon");
  res.setHeader("x-dropped", undefined as unknown as string); // as JavaScript apps do, an optional value unset
  res.writeHead(201, { "content-type": "text/plain", "x-undefined": undefined });
  res.writeHead(500, { "x-late": "ignored" });
  res.setHeader("x-after", "ignored");
  res.appendHeader("x-kept", "ignored too");
  res.removeHeader("x-kept");
  res.end(`${req.method} done`);
}

const endpoints = [
  raw("lenientGet", ["GET"], "/lenient", lenientHandler),
  raw("lenientPost", ["POST"], "/lenient", lenientHandler),
  raw("writeThenHead", ["GET"], "/write-then-head", (_req, res) => {
    res.write("streamed"); // sends the headers
    res.writeHead(404);
    res.end();
  }),
  raw("strict", ["GET"], "/strict", (_req, res) => {
    res.writeHead(200, ["x-pair", "one"]);
    res.end("ok");
  }),
];

let server: Awaited<ReturnType<typeof buildHttpServer>>;
let url: string;
beforeAll(async () => {
  server = await buildHttpServer(endpoints, { appRoot: process.cwd(), exposeInternalErrors: false, pubsubAdminToken: null, objects: config().objects, trustProxy: false });
  await server.listen({ host: "127.0.0.1", port: 0 });
  const address = server.server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(async () => {
  await server.close();
});

describe("the response a raw handler gets", () => {
  test.each(["GET", "POST"])("%s: a second writeHead and header changes after it are ignored; undefined headers are left unset", async (method) => {
    const res = await fetch(`${url}/lenient`, { method });
    expect(res.status).toBe(201);
    expect(await res.text()).toBe(`${method} done`);
    expect(res.headers.get("content-type")).toBe("text/plain");
    expect(res.headers.get("x-kept")).toBe("yes");
    expect(res.headers.has("x-dropped")).toBe(false);
    expect(res.headers.has("x-undefined")).toBe(false);
    expect(res.headers.has("x-late")).toBe(false);
    expect(res.headers.has("x-after")).toBe(false);
  });

  test("writeHead after the body has started keeps the status already sent", async () => {
    const res = await fetch(`${url}/write-then-head`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("streamed");
  });

  test("writeHead with headers as a flat array still works as in Node", async () => {
    const res = await fetch(`${url}/strict`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-pair")).toBe("one");
  });
});
