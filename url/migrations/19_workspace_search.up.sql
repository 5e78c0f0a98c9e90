-- GET /links?q= searches one workspace's links. urls_search_trgm_idx (migration 14) held the
-- trigrams of every link, so a search in a workspace of 100,000 links among a million read
-- the trigrams' matches over the whole table and then each matching row, to keep the
-- workspace's: 20-30 ms for a handful of results, 85 ms for a few thousand matches. This
-- index also holds each link's workspace (btree_gin, a trusted extension PostgreSQL ships,
-- lets a GIN index hold a plain value), so one scan intersects the workspace with the
-- trigrams and only the workspace's matches are read (3 ms). A GIN index answers a condition
-- on any of its columns alike, so GET /admin/links' search, over every workspace, uses it as
-- it used the old one, which goes. Neither column changes under the click flush, whose
-- updates stay HOT. Built in the migration's transaction: about 15 s at a million links,
-- during which links are read as usual but not written.
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE INDEX urls_workspace_search_idx ON urls
  USING gin (workspace_id, (code || E'\n' || original_url || E'\n' || coalesce(title, '')) gin_trgm_ops);
DROP INDEX urls_search_trgm_idx;
