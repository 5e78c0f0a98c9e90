// GET /openapi.json on a real server: answered only when SERVE_OPENAPI=on asks for it.
import type { FastifyInstance } from "fastify";
import { afterEach, describe, expect, test } from "vitest";
import { appRoot } from "../../config/app-root.ts";
import { config } from "../../config/mod.ts";
import { appName } from "../../meta/app-name.ts";
import { parseApp } from "../../parser/mod.ts";
import { toOpenAPI } from "../../parser/openapi.ts";
import { buildHttpServer } from "../http-server.ts";

const meta = parseApp(appRoot);
let server: FastifyInstance | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("GET /openapi.json", () => {
  test("answers the app's OpenAPI document, the one gen client --lang openapi writes, when asked to", async () => {
    server = await buildHttpServer([], config(), { openApiOf: meta });
    const res = await server.inject({ method: "GET", url: "/openapi.json" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    const doc = res.json() as { openapi: string; paths: Record<string, unknown> };
    expect(doc).toEqual(JSON.parse(JSON.stringify(toOpenAPI(meta, appName(meta, appRoot)))));
    expect(doc.paths["/shorten"]).toBeDefined();
  });

  test("is Encore's not_found error when it is off, as by default", async () => {
    server = await buildHttpServer([], config());
    const res = await server.inject({ method: "GET", url: "/openapi.json" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: "not_found" });
  });
});
