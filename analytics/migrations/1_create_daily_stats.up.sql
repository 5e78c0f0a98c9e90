CREATE TABLE daily_stats (
  date DATE NOT NULL UNIQUE,
  urls_created INTEGER NOT NULL DEFAULT 0
);

-- Messages already counted: pub/sub delivers at least once, and a redelivered
-- message must not count twice. Written in the same transaction as the count.
CREATE TABLE processed_messages (
  message_id TEXT PRIMARY KEY,
  processed_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
