-- A workspace's webhooks: where its link events are sent, signed with the webhook's secret.
CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  url TEXT NOT NULL,
  events TEXT[] NOT NULL,
  -- Signs every delivery (HMAC-SHA256); shown once, when the webhook is made.
  secret TEXT NOT NULL,
  -- Who registered it: told by mail when it is disabled.
  created_by TEXT NOT NULL,
  enabled BOOLEAN NOT NULL DEFAULT true,
  -- Why it was disabled, when it was by failures; null while enabled or disabled by hand.
  disabled_reason TEXT,
  -- Failed attempts in a row; any success, and enabling, sets it back to 0.
  consecutive_failures INT NOT NULL DEFAULT 0,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_workspace_idx ON webhooks (workspace_id);

-- One event for one webhook: its body is fixed when it is made, so "send again" sends the
-- same payload. (webhook_id, event_id) is unique: an event published twice (the relay's
-- at-least-once) makes one delivery per webhook, never two.
CREATE TABLE deliveries (
  id TEXT PRIMARY KEY,
  webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  event_id TEXT NOT NULL,
  type TEXT NOT NULL,
  body TEXT NOT NULL,
  -- pending (not delivered yet, maybe being retried), delivered, failed (given up).
  status TEXT NOT NULL DEFAULT 'pending',
  attempts INT NOT NULL DEFAULT 0,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  delivered_at TIMESTAMPTZ,
  UNIQUE (webhook_id, event_id)
);
CREATE INDEX deliveries_webhook_idx ON deliveries (webhook_id, created_at DESC);

-- Every attempt of a delivery: what the receiver answered, or why nothing was sent.
CREATE TABLE delivery_attempts (
  id BIGSERIAL PRIMARY KEY,
  delivery_id TEXT NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
  attempted_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  status_code INT,
  error TEXT,
  duration_ms INT NOT NULL
);
CREATE INDEX delivery_attempts_delivery_idx ON delivery_attempts (delivery_id, id);
