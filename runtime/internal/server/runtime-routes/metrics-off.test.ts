// Metrics are off unless METRICS_PORT or METRICS_TOKEN is set: no /metrics route, nothing
// counted. Responses still carry their request id.
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, expect, test } from "vitest";
import { config, metricsEnabled } from "../../config/mod.ts";
import type { EndpointMeta } from "../../meta/types.ts";
import { meter } from "../../metrics/mod.ts";
import type { Endpoint } from "../../registry/endpoints.ts";
import { buildHttpServer } from "../http-server.ts";

const meta: EndpointMeta = {
  service: "svc", name: "resolve", kind: "raw", file: "svc/api.ts", line: 1, doc: null, expose: true, auth: false, methods: ["GET"],
  path: "/:code", pathParams: [{ name: "code", wildcard: false }], tags: [], sensitive: false, request: null, response: null,
};
const endpoints: Endpoint[] = [{ meta, handler: (_req: IncomingMessage, res: ServerResponse) => res.end("found") }];

let server: Awaited<ReturnType<typeof buildHttpServer>>;
let base = "";
beforeAll(async () => {
  server = await buildHttpServer(endpoints, config());
  await server.listen({ host: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${(server.server.address() as { port: number }).port}`;
});
afterAll(() => server.close());

test("with neither METRICS_PORT nor METRICS_TOKEN, metrics are off and GET /metrics is the app's path", async () => {
  expect(metricsEnabled(config().metrics)).toBe(false);
  expect(meter).toBeNull();
  // /metrics is no runtime route: the app's "/:code" takes it, as it takes any other one-segment path.
  const res = await fetch(`${base}/metrics`);
  expect([res.status, await res.text()]).toEqual([200, "found"]);
  const withToken = await fetch(`${base}/metrics`, { headers: { authorization: "Bearer anything-at-all-0123" } });
  expect(await withToken.text()).toBe("found");
});

test("an app without such a route answers /metrics 404 in Encore's format; the request id is still set", async () => {
  const bare = await buildHttpServer([], config());
  try {
    const res = await bare.inject({ method: "GET", url: "/metrics" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: "not_found", message: "endpoint not found", details: null });
  } finally {
    await bare.close();
  }
  expect((await fetch(`${base}/abc`)).headers.get("x-request-id")).toMatch(/^[A-Za-z0-9_-]{8}-[0-9a-z]+$/);
});
