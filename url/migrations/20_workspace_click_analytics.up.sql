-- Click analytics per workspace, so that GET /me/clicks reads its workspace's rows rather
-- than every link's: at 100,000 links it read some million link rows (1.9 to 3.3 s, past the
-- 2 s read box). Exact as the links' are: every click of a workspace link is counted, in the
-- flush's transaction, in exactly one of these tables at any time.

-- What the flush adds (url/click-analytics/workspace-clicks.ts): one row per workspace, hour
-- and combination of values, the targeting rule that sent the click included (value '' for
-- none). The compact-workspace-clicks job moves them every 5 minutes into
-- workspace_clicks_hourly, so a workspace keeps few of them. Room on each page keeps the
-- flush's updates heap-only, as link_clicks_hourly's.
CREATE TABLE workspace_clicks_recent (
  workspace_id TEXT NOT NULL,
  hour TIMESTAMPTZ NOT NULL,
  bot BOOLEAN NOT NULL,
  referrer TEXT NOT NULL,
  country TEXT NOT NULL,
  browser TEXT NOT NULL,
  os TEXT NOT NULL,
  device TEXT NOT NULL,
  rule TEXT NOT NULL,
  clicks BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, hour, bot, referrer, country, browser, os, device, rule)
)
WITH (fillfactor = 50);

-- A workspace's clicks per hour and dimension value: dimension 'all' (value '') holds every
-- click; 'referrer', 'country', 'browser', 'os', 'device' and 'rule' at most 50 values each
-- per hour (the first to come, most clicked first within a compaction), so a value past them
-- counts only in 'all', and the breakdowns' other is 'all' less the values shown. Hours older
-- than 35 days are rolled up into workspace_clicks_daily by the rollup-click-analytics job.
-- The key leads with (workspace_id, dimension) so the series and each breakdown are one
-- contiguous index range.
CREATE TABLE workspace_clicks_hourly (
  workspace_id TEXT NOT NULL,
  dimension TEXT NOT NULL,
  hour TIMESTAMPTZ NOT NULL,
  value TEXT NOT NULL,
  humans BIGINT NOT NULL,
  bots BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, dimension, hour, value)
);

-- The same per UTC day, for days older than the hourly retention: at most 50 values per
-- dimension and day (the most clicked).
CREATE TABLE workspace_clicks_daily (
  workspace_id TEXT NOT NULL,
  dimension TEXT NOT NULL,
  day DATE NOT NULL,
  value TEXT NOT NULL,
  humans BIGINT NOT NULL,
  bots BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, dimension, day, value)
);

-- The clicks stored so far, from the links' rows. Writers of those rows wait for this
-- migration (the lock), so none is counted twice or missed by it; replicas of the previous
-- release still running during a rolling upgrade add to their links' rows only, so their
-- clicks after this point show in each link's analytics but not in its workspace's. A link
-- row's value '' (other) counts in 'all' only, and a link's rule '' (none) in no rule.
LOCK TABLE link_clicks_hourly, link_clicks_rules_hourly, link_clicks_daily IN SHARE MODE;

INSERT INTO workspace_clicks_hourly (workspace_id, dimension, hour, value, humans, bots)
SELECT workspace_id, dimension, hour, value, humans, bots
FROM (
  SELECT *, row_number() OVER (PARTITION BY workspace_id, dimension, hour ORDER BY humans + bots DESC, value) AS rank
  FROM (
    SELECT u.workspace_id, h.hour,
           CASE WHEN GROUPING(h.referrer) = 0 THEN 'referrer' WHEN GROUPING(h.country) = 0 THEN 'country'
                WHEN GROUPING(h.browser) = 0 THEN 'browser' WHEN GROUPING(h.os) = 0 THEN 'os'
                WHEN GROUPING(h.device) = 0 THEN 'device' ELSE 'all' END AS dimension,
           COALESCE(h.referrer, h.country, h.browser, h.os, h.device, '') AS value,
           COALESCE(sum(h.clicks) FILTER (WHERE NOT h.bot), 0) AS humans, COALESCE(sum(h.clicks) FILTER (WHERE h.bot), 0) AS bots
    FROM link_clicks_hourly h JOIN urls u ON u.code = h.code
    WHERE u.workspace_id IS NOT NULL
    GROUP BY u.workspace_id, h.hour, GROUPING SETS ((), (h.referrer), (h.country), (h.browser), (h.os), (h.device))
    UNION ALL
    SELECT u.workspace_id, r.hour, 'rule', r.rule,
           COALESCE(sum(r.clicks) FILTER (WHERE NOT r.bot), 0), COALESCE(sum(r.clicks) FILTER (WHERE r.bot), 0)
    FROM link_clicks_rules_hourly r JOIN urls u ON u.code = r.code
    WHERE u.workspace_id IS NOT NULL
    GROUP BY 1, 2, 4
  ) AS dims
  WHERE dimension = 'all' OR value <> ''
) AS ranked
WHERE dimension = 'all' OR rank <= 50;

INSERT INTO workspace_clicks_daily (workspace_id, dimension, day, value, humans, bots)
SELECT workspace_id, dimension, day, value, humans, bots
FROM (
  SELECT *, row_number() OVER (PARTITION BY workspace_id, dimension, day ORDER BY humans + bots DESC, value) AS rank
  FROM (
    SELECT u.workspace_id, d.dimension, d.day, d.value, sum(d.humans) AS humans, sum(d.bots) AS bots
    FROM link_clicks_daily d JOIN urls u ON u.code = d.code
    WHERE u.workspace_id IS NOT NULL AND (d.dimension = 'all' OR d.value <> '')
    GROUP BY 1, 2, 3, 4
  ) AS dims
) AS ranked
WHERE dimension = 'all' OR rank <= 50;
