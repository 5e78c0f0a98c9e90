-- The cleanup deletes stale rows in the run that finds them (url/stale-urls/remove.ts):
-- the two-phase mark of migration 5 goes.
DROP INDEX urls_stale_since_idx;
ALTER TABLE urls DROP COLUMN stale_since;

-- Every instance caches code -> link (url/link-cache/cache.ts). When a row is deleted, or
-- anything a lookup answers with changes, its code is sent on the channel
-- url_cache_evict, and each instance listening drops it from its cache
-- (url/link-cache/evictions.ts). Sent when the transaction commits, and only then.
-- An empty payload (TRUNCATE) means every code.
CREATE FUNCTION url_cache_evict() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('url_cache_evict', '');
    RETURN NULL;
  END IF;
  PERFORM pg_notify('url_cache_evict', OLD.code);
  IF TG_OP = 'UPDATE' AND NEW.code IS DISTINCT FROM OLD.code THEN
    PERFORM pg_notify('url_cache_evict', NEW.code);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER urls_evict_deleted AFTER DELETE ON urls
  FOR EACH ROW EXECUTE FUNCTION url_cache_evict();
-- Only updates naming a column a lookup reads: the click flush sets clicks alone,
-- so it never fires this (nor pays for it), and stays a HOT update (no indexed
-- column changes). A column a lookup comes to read must be added to this list.
CREATE TRIGGER urls_evict_changed AFTER UPDATE OF code, original_url ON urls
  FOR EACH ROW WHEN (OLD.code IS DISTINCT FROM NEW.code OR OLD.original_url IS DISTINCT FROM NEW.original_url)
  EXECUTE FUNCTION url_cache_evict();
CREATE TRIGGER urls_evict_truncated AFTER TRUNCATE ON urls
  FOR EACH STATEMENT EXECUTE FUNCTION url_cache_evict();
