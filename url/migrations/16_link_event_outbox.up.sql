-- Link events for webhooks (link.created, link.updated, link.deleted, link.clicked) not yet
-- handed to pub/sub. Each row is written in the transaction of the change it tells of, so a
-- committed change never loses its event and a rolled-back one never has one. A click
-- flush writes one row per flush (its per-code counts), not one per click. Only links of a
-- workspace have events. The links service publishes the rows to its link-events topic
-- and deletes them (links/event-outbox/relay.ts).
CREATE TABLE link_event_outbox (
  id BIGSERIAL PRIMARY KEY,
  type TEXT NOT NULL,
  -- Null for link.clicked, whose data names each code's workspace.
  workspace_id TEXT,
  data JSONB NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Tells the relay, at the commit and only then, that rows wait; once per transaction
-- (PostgreSQL folds equal notifications of one transaction into one).
CREATE FUNCTION link_event_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('url_link_events', '');
  RETURN NULL;
END $$;

CREATE TRIGGER link_event_outbox_inserted AFTER INSERT ON link_event_outbox
  FOR EACH STATEMENT EXECUTE FUNCTION link_event_outbox_notify();
