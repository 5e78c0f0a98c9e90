-- A lookup answers a disabled link with its reason's message ('link disabled for abuse' or
-- 'link disabled'), so a change of disabled_reason alone must evict the code too (migration
-- 8's trigger watched disabled_at only; moderation happens to set both, SQL by hand need not).
-- Still not the click flush, which sets clicks alone. url/link-cache/trigger-columns.test.ts
-- checks this list against the columns the lookup reads.
DROP TRIGGER urls_evict_changed ON urls;
CREATE TRIGGER urls_evict_changed
  AFTER UPDATE OF code, original_url, expires_at, max_clicks, password_hash, deleted_at, disabled_at, disabled_reason ON urls
  FOR EACH ROW WHEN (
    OLD.code IS DISTINCT FROM NEW.code
    OR OLD.original_url IS DISTINCT FROM NEW.original_url
    OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
    OR OLD.max_clicks IS DISTINCT FROM NEW.max_clicks
    OR OLD.password_hash IS DISTINCT FROM NEW.password_hash
    OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
    OR OLD.disabled_at IS DISTINCT FROM NEW.disabled_at
    OR OLD.disabled_reason IS DISTINCT FROM NEW.disabled_reason)
  EXECUTE FUNCTION url_cache_evict();
