-- One row per day again, `date` its unique key: each day's shards (migration 4)
-- folded into one row holding their sum, so nothing counted is lost. Concurrent
-- events now share a transaction per batch (analytics/track.ts) instead of
-- spreading over rows. Writers wait for this migration (the lock), so no shard
-- row can be added after the fold; an instance still running the sharded code
-- fails its write afterwards and the event is delivered again.
LOCK TABLE daily_stats IN EXCLUSIVE MODE;
ALTER TABLE daily_stats DROP CONSTRAINT daily_stats_pkey;
WITH shards AS (DELETE FROM daily_stats RETURNING date, urls_created)
INSERT INTO daily_stats (date, shard, urls_created)
SELECT date, 0, sum(urls_created)::int FROM shards GROUP BY date;
ALTER TABLE daily_stats DROP COLUMN shard;
ALTER TABLE daily_stats ADD CONSTRAINT daily_stats_date_key UNIQUE (date);
