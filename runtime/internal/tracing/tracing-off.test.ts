// Tracing off, as in `start` without an OTLP endpoint: the app's real server answers as it
// always did, and nothing of OpenTelemetry is ever registered.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { startAppTracing } from "./boot.ts";
import { currentTraceData, recorder, traceStore } from "./mod.ts";

/** Where @opentelemetry/api keeps whatever is registered with it (its major version 1). */
const otelGlobals = Symbol.for("opentelemetry.js.api.1");

let server: TestServer;
beforeAll(async () => {
  // The boot step, as startServer runs it: no dashboard, no OTEL_EXPORTER_OTLP_ENDPOINT.
  expect(await startAppTracing(false)).toBe("off");
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe("with tracing off", () => {
  test("there is no trace store, no recorder and no trace data", () => {
    expect(traceStore()).toBeNull();
    expect(recorder).toBeNull();
    expect(currentTraceData()).toBeUndefined();
  });

  test("typed and raw (fast lane) responses carry no trace id, and OpenTelemetry's API was never registered", async () => {
    const shortened = await fetch(`${server.url}/shorten`, { method: "POST", body: JSON.stringify({ url: "https://example.com/off" }) });
    expect(shortened.status).toBe(200);
    expect(shortened.headers.has("x-encore-trace-id")).toBe(false);
    const { code } = (await shortened.json()) as { code: string };

    const redirect = await fetch(`${server.url}/${code}`);
    expect(await redirect.json()).toEqual({ url: "https://example.com/off" });
    expect(redirect.headers.has("x-encore-trace-id")).toBe(false);

    const missing = await fetch(`${server.url}/nope12/stats`);
    expect(missing.status).toBe(404);
    expect(missing.headers.has("x-encore-trace-id")).toBe(false);

    expect((globalThis as Record<symbol, unknown>)[otelGlobals]).toBeUndefined();
  });
});
