import { api, APIError } from "encore.dev/api";
import { appMeta } from "encore.dev";
import type { MaxLen } from "encore.dev/validate";
import { callerAllowed } from "./records/access";
import {
  checkEvents,
  deleteWebhook,
  insertWebhook,
  updateWebhook,
  webhookIn,
  webhookOf,
  webhooksOf,
  type Webhook,
} from "./records/webhook-rows";
import { newSecret } from "./sending/signature";
import { checkTarget, TargetRefused } from "../outbound/target";
import { webhooksConfig } from "./webhooks-config";

// A workspace's webhooks: its owner and admins add, change and delete them, its members
// list them (records/access.ts); API keys are refused (403). Deliveries and their log:
// deliveries.ts; sending: deliver.ts.

interface WorkspaceParams {
  /** The workspace's id. */
  id: string;
}

interface WebhookParams extends WorkspaceParams {
  webhookId: string;
}

export interface CreateWebhookRequest {
  /** Where to POST the events: an absolute http(s) URL of a public host (see WEBHOOK_ALLOW_PRIVATE_TARGETS). */
  url: string & MaxLen<2000>;
  /** Some of link.created, link.updated, link.deleted, link.clicked. */
  events: string[] & MaxLen<4>;
}

export interface CreatedWebhook extends Webhook {
  /** Signs every delivery (see Webhook-Signature); shown this once, never again. */
  secret: string;
}

export interface WebhookList {
  /** Oldest first. */
  webhooks: Webhook[];
}

export interface ChangeWebhookRequest {
  url?: string & MaxLen<2000>;
  events?: string[] & MaxLen<4>;
  /** false stops deliveries; true starts them again and sets the failure count back to 0. */
  enabled?: boolean;
}

/** Registers a webhook: 400 when its URL is refused (its reason said), 429 past 20 per workspace. */
export const createWebhook = api(
  { expose: true, auth: true, method: "POST", path: "/workspaces/:id/webhooks" },
  async ({ id, url, events }: WorkspaceParams & CreateWebhookRequest): Promise<CreatedWebhook> => {
    const userID = await callerAllowed(id, "manage");
    const checkedEvents = checkEvents(events);
    const target = await checkedUrl(url);
    const secret = newSecret();
    const row = await insertWebhook({ workspaceId: id, url: target, events: checkedEvents, secret, createdBy: userID });
    return { ...webhookOf(row), secret };
  },
);

/** The workspace's webhooks, without their secrets. */
export const listWebhooks = api(
  { expose: true, auth: true, method: "GET", path: "/workspaces/:id/webhooks" },
  async ({ id }: WorkspaceParams): Promise<WebhookList> => {
    await callerAllowed(id, "read");
    return { webhooks: (await webhooksOf(id)).map(webhookOf) };
  },
);

/** Changes a webhook's URL, events, or whether it is enabled. */
export const changeWebhook = api(
  { expose: true, auth: true, method: "PATCH", path: "/workspaces/:id/webhooks/:webhookId" },
  async ({ id, webhookId, url, events, enabled }: WebhookParams & ChangeWebhookRequest): Promise<Webhook> => {
    await callerAllowed(id, "manage");
    if (url === undefined && events === undefined && enabled === undefined) {
      throw APIError.invalidArgument("nothing to change: send at least one of url, events, enabled");
    }
    await webhookIn(id, webhookId);
    const changes = {
      url: url === undefined ? undefined : await checkedUrl(url),
      events: events === undefined ? undefined : checkEvents(events),
      enabled,
    };
    return webhookOf(await updateWebhook(id, webhookId, changes));
  },
);

/** Deletes a webhook and its delivery log; deliveries still queued are dropped. */
export const removeWebhook = api(
  { expose: true, auth: true, method: "DELETE", path: "/workspaces/:id/webhooks/:webhookId" },
  async ({ id, webhookId }: WebhookParams): Promise<void> => {
    await callerAllowed(id, "manage");
    await deleteWebhook(id, webhookId);
  },
);

/** The URL, normalised, once its host passes the target rules; 400 with the reason otherwise. */
async function checkedUrl(url: string): Promise<string> {
  try {
    const target = await checkTarget(url.trim(), { ownBaseUrl: appMeta().apiBaseUrl, allowPrivate: webhooksConfig.allowPrivateTargets });
    return target.url.href;
  } catch (err) {
    if (err instanceof TargetRefused) throw APIError.invalidArgument(err.message);
    throw err;
  }
}
