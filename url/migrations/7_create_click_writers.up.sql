-- Each process that writes clicks is a writer with an id of its own, and `seq` is the
-- number of its last batch of clicks stored. A batch is stored in the same transaction
-- that raises `seq`, so a batch whose commit went unanswered, or one replayed from the
-- writer's journal after a crash, is stored again only if `seq` says it is not yet:
-- every answered click is counted exactly once (url/click-counting/).
CREATE TABLE click_writers (
  writer TEXT PRIMARY KEY,
  seq BIGINT NOT NULL DEFAULT 0,
  -- Rows of writers gone for 30 days are dropped when a writer starts.
  written_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
