-- Events already counted, by their idempotency key rather than by message id: the
-- url service may publish one stored URL's event again as a new message (a failed
-- delete of its outbox row), with the same eventId. Written in the same transaction
-- as the count. Keys are dropped after a retention period (analytics/processed-events.ts),
-- found through the index on processed_at.
CREATE TABLE processed_events (
  event_key TEXT PRIMARY KEY,
  processed_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX processed_events_processed_at_idx ON processed_events (processed_at);

-- Messages counted before this change carry no eventId and are keyed by message id
-- (track.ts: 'message:' || id): a redelivery of one of them still counts once.
INSERT INTO processed_events (event_key, processed_at)
SELECT 'message:' || message_id, processed_at FROM processed_messages;
DROP TABLE processed_messages;
