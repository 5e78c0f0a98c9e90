import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import "../../../../analytics/track.ts"; // declares url-shortened and track-analytics
import { startPubSub } from "../../pubsub/mod.ts";
import { errorHandler } from "../pipeline/errors.ts";
import { registerPubSubAdmin } from "./pubsub-admin.ts";

const token = "test-admin-token-0123456789";
const server = Fastify();
server.setErrorHandler(errorHandler(false));
registerPubSubAdmin(server, token);
const auth = { authorization: `Bearer ${token}` };

beforeAll(async () => {
  await startPubSub();
});
afterAll(async () => {
  await server.close();
});

describe("pub/sub operations endpoints", () => {
  test("stats list every subscription with backlog, in-flight and dead letters", async () => {
    const res = await server.inject({ method: "GET", url: "/__encore/pubsub", headers: auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      subscriptions: [{ topic: "url-shortened", subscription: "track-analytics", backlog: 0, inFlight: 0, deadLetters: 0 }],
    });
  });

  test("without the token: 401 unauthenticated", async () => {
    const res = await server.inject({ method: "GET", url: "/__encore/pubsub", headers: { authorization: "Bearer nope" } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: "unauthenticated" });
  });

  test("redrive of an unknown subscription is 404; of a known one reports how many moved", async () => {
    const unknown = await server.inject({
      method: "POST",
      url: "/__encore/pubsub/redrive",
      headers: auth,
      payload: { topic: "url-shortened", subscription: "nope" },
    });
    expect(unknown.statusCode).toBe(404);
    const known = await server.inject({
      method: "POST",
      url: "/__encore/pubsub/redrive",
      headers: auth,
      payload: { topic: "url-shortened", subscription: "track-analytics" },
    });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual({ redriven: 0 });
  });

  test("a redrive body without names is 400 invalid_argument", async () => {
    const res = await server.inject({ method: "POST", url: "/__encore/pubsub/redrive", headers: auth, payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "invalid_argument" });
  });
});
