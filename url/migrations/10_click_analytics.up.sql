-- Click analytics: counters per link, per hour, per combination of what a click
-- records, so their size grows with links × time and the variety of visitors, not with
-- clicks. Each click adds one to one row, in the transaction that adds it to
-- urls.clicks (url/click-counting/store.ts), so a link's rows sum to its clicks.
--
-- One row per combination rather than one per dimension value: a click then costs the
-- batched flush one row to add to instead of six, and each breakdown is a GROUP BY.
CREATE TABLE link_clicks_hourly (
  code TEXT NOT NULL,
  hour TIMESTAMPTZ NOT NULL,
  bot BOOLEAN NOT NULL,
  referrer TEXT NOT NULL,
  country TEXT NOT NULL,
  browser TEXT NOT NULL,
  os TEXT NOT NULL,
  device TEXT NOT NULL,
  clicks BIGINT NOT NULL,
  PRIMARY KEY (code, hour, bot, referrer, country, browser, os, device)
)
-- A row is added to by every flush in its hour with clicks of its link: room on each
-- page lets those updates stay heap-only (HOT), with no index entry to write.
WITH (fillfactor = 50);

-- Hours older than the hourly retention, rolled up into UTC days by the
-- rollup-click-analytics cron job, one row per dimension value: dimension is 'all'
-- (value '') or one of 'referrer', 'country', 'browser', 'os', 'device'. In a day a
-- dimension keeps its top values and sums the rest under value '' (other).
-- The key leads with (code, dimension) so a link's series and each breakdown are one
-- contiguous index range.
CREATE TABLE link_clicks_daily (
  code TEXT NOT NULL,
  dimension TEXT NOT NULL,
  day DATE NOT NULL,
  value TEXT NOT NULL,
  humans BIGINT NOT NULL DEFAULT 0,
  bots BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (code, dimension, day, value)
);

-- Clicks counted before analytics existed: nothing is known of them but their number.
-- They are recorded as 'unknown' in every dimension (humans, having no way to tell), in
-- the hour the link was made, so a link's analytics still sum to its clicks.
INSERT INTO link_clicks_hourly (code, hour, bot, referrer, country, browser, os, device, clicks)
SELECT code, date_trunc('hour', COALESCE(created_at, now())), false, 'unknown', 'unknown', 'unknown', 'unknown', 'unknown', clicks
FROM urls
WHERE clicks > 0;
