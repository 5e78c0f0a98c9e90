-- Cleanup deletes in two phases (url/stale-urls/remove.ts): a run marks the stale rows
-- it finds, and a later run deletes those still unclicked long after the mark, so
-- clicks that any instance held in memory at marking time have been written.
ALTER TABLE urls ADD COLUMN stale_since TIMESTAMPTZ;
-- The deleting phase walks marked rows only. The click flush never changes
-- stale_since, so its updates of marked rows stay HOT (no index entries written).
CREATE INDEX urls_stale_since_idx ON urls (stale_since, id) WHERE stale_since IS NOT NULL;
