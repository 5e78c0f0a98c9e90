import type { FastifyInstance } from "fastify";
import { config } from "../config/mod.ts";
import { APIError } from "../errors/api-error.ts";
import type { AppMeta, TopicMeta } from "../meta/types.ts";
import { publish, runningPubSub } from "../pubsub/mod.ts";
import type { SubscriptionStats } from "../pubsub/provider.ts";
import { compileValidator, describeValidationErrors } from "../validation/ajv.ts";
import { compileDateReviver } from "../validation/dates.ts";
import type { PubSubState } from "./api.ts";

/**
 * GET /api/pubsub: each topic with its publishers and its subscriptions' backlog, in-flight
 * and dead letters, as the running provider (SQL or NATS) counts them.
 * POST /api/pubsub/publish {topic, message}: a test message, checked against the topic's
 * message type (a message its subscribers cannot read would fail every delivery), then
 * published through the topic's own publish path, as the app's `topic.publish()` would.
 * POST /api/pubsub/redrive {topic, subscription}: dead letters back into delivery.
 */
export function registerPubSub(app: FastifyInstance, meta: AppMeta): void {
  const checks = new Map(meta.topics.map((topic) => [topic.name, messageCheck(topic)]));
  app.get("/api/pubsub", async (): Promise<PubSubState> => {
    const running = runningPubSub();
    const stats = running ? await (await running).stats() : [];
    return {
      provider: config().natsUrl ? "nats" : "sql",
      topics: meta.topics.map((topic) => ({
        name: topic.name,
        service: topic.service,
        publishers: topic.publishers,
        subscriptions: meta.subscriptions
          .filter((s) => s.topic === topic.name)
          .map((s) => {
            const counted = stats.find((c) => c.topic === topic.name && c.subscription === s.name);
            return { name: s.name, service: s.service, ...counts(counted) };
          }),
      })),
    };
  });

  app.post("/api/pubsub/publish", async (req) => {
    const body = objectBody(req.body);
    const topic = knownTopic(meta, body["topic"]);
    const message = body["message"];
    if (typeof message !== "object" || message === null || Array.isArray(message)) {
      throw APIError.invalidArgument("message must be a JSON object, as a topic's messages are");
    }
    return { messageId: await publish(topic, checks.get(topic)!(message)) };
  });

  app.post("/api/pubsub/redrive", async (req) => {
    const body = objectBody(req.body);
    const topic = knownTopic(meta, body["topic"]);
    const subscription = body["subscription"];
    if (typeof subscription !== "string") throw APIError.invalidArgument('expected {"topic": "...", "subscription": "..."}');
    const running = runningPubSub();
    if (!running) throw APIError.failedPrecondition("pub/sub has not started");
    const provider = await running;
    const known = (await provider.stats()).some((s) => s.topic === topic && s.subscription === subscription);
    if (!known) throw APIError.notFound(`no subscription "${subscription}" on topic "${topic}"`);
    return { redriven: await provider.redrive(topic, subscription) };
  });
}

/**
 * The topic's message type, compiled once: answers the message as app code would publish it
 * (its date fields as Dates), or throws invalid_argument naming the field that does not match.
 * Only the dashboard checks: `topic.publish()` in app code is type-checked, not checked at
 * run time, as in Encore.
 */
function messageCheck(topic: TopicMeta): (message: object) => object {
  const validate = compileValidator(topic.message, "message");
  const revive = compileDateReviver(topic.message);
  const typeName = (topic.message["x-encore-ref"] as { name?: string } | undefined)?.name;
  return (message) => {
    if (!validate(message)) {
      const problem = describeValidationErrors(validate.errors, "message", message);
      throw APIError.invalidArgument(`the message does not match the type of topic "${topic.name}"${typeName ? ` (${typeName})` : ""}: ${problem}`);
    }
    return revive ? (revive(message) as object) : message;
  };
}

function counts(stats: SubscriptionStats | undefined): { backlog: number; inFlight: number; deadLetters: number } {
  return { backlog: stats?.backlog ?? 0, inFlight: stats?.inFlight ?? 0, deadLetters: stats?.deadLetters ?? 0 };
}

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw APIError.invalidArgument("the body must be a JSON object");
  return body as Record<string, unknown>;
}

function knownTopic(meta: AppMeta, topic: unknown): string {
  if (typeof topic !== "string") throw APIError.invalidArgument("topic must be a topic's name");
  if (!meta.topics.some((t) => t.name === topic)) throw APIError.notFound(`no topic "${topic}"`);
  return topic;
}
