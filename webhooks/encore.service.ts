import { Service } from "encore.dev/service";

// Webhooks: a workspace's URLs that are told, signed, of its links' events (created,
// updated, deleted, clicked). Its own database holds the webhooks and every delivery
// and attempt, so the log outlives retries; deliveries go through the app's own pub/sub
// (events.ts), which retries them with backoff.
export default new Service("webhooks");
