import { api, APIError } from "encore.dev/api";
import { payloadOf } from "./payload";

export interface Delivery {
  id: string;
  event: string;
  payload: Record<string, unknown>;
}

const deliveries: Delivery[] = [];

/** Takes a GitHub-style delivery: the event's name in a header, its payload as JSON. */
export const github = api.raw({ expose: true, method: "POST", path: "/webhooks/github" }, async (req, resp) => {
  const event = req.headers["x-github-event"];
  if (typeof event !== "string" || event === "") throw APIError.invalidArgument("the X-GitHub-Event header is missing");
  const delivery = { id: String(resp.getHeader("X-Delivery-Id")), event, payload: await payloadOf(req) };
  deliveries.push(delivery);
  resp.writeHead(202, { "Content-Type": "application/json" });
  resp.end(JSON.stringify({ received: delivery.event, delivery: delivery.id }));
});

/** The deliveries received so far, oldest first. */
export const list = api(
  { expose: true, method: "GET", path: "/webhooks/deliveries" },
  async (): Promise<{ deliveries: Delivery[] }> => ({ deliveries }),
);
