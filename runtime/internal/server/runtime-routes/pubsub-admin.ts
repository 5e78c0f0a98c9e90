import type { FastifyInstance } from "fastify";
import { APIError } from "../../errors/api-error.ts";
import { pubsubAdminPath } from "../../meta/runtime-routes.ts";
import { runningPubSub } from "../../pubsub/mod.ts";
import { bearerGuard } from "./bearer.ts";

/**
 * Operations on pub/sub for whoever holds PUBSUB_ADMIN_TOKEN (off without it):
 *   GET  /__encore/pubsub          backlog, in-flight and dead letters per subscription
 *   POST /__encore/pubsub/redrive  {"topic","subscription"}: dead letters back into delivery
 */
export function registerPubSubAdmin(server: FastifyInstance, token: string | null): void {
  if (!token) return;
  const authorize = bearerGuard(token, "PUBSUB_ADMIN_TOKEN");
  const provider = async () => {
    const running = runningPubSub();
    if (!running) throw APIError.failedPrecondition("pub/sub has not started: the app declares no topics");
    return running;
  };

  server.get(pubsubAdminPath, async (req) => {
    authorize(req);
    return { subscriptions: await (await provider()).stats() };
  });

  server.post(`${pubsubAdminPath}/redrive`, async (req) => {
    authorize(req);
    const body = req.body as { topic?: unknown; subscription?: unknown } | null;
    if (typeof body?.topic !== "string" || typeof body.subscription !== "string") {
      throw APIError.invalidArgument('expected {"topic": "...", "subscription": "..."}');
    }
    const p = await provider();
    const known = (await p.stats()).some((s) => s.topic === body.topic && s.subscription === body.subscription);
    if (!known) throw APIError.notFound(`no subscription "${body.subscription}" on topic "${body.topic}"`);
    return { redriven: await p.redrive(body.topic, body.subscription) };
  });
}
