-- Links people manage: a chosen code (alias), an end date, a click budget, a password,
-- a title and description for the owner's list, editing, deleting and moderation.

-- Aliases are chosen by people, so two may differ only in case ("Sale" and "sale"): they
-- must not both exist, nor an alias equal to a random code but for case. Random codes are
-- lower case, so every row already stored satisfies this. code never changes under the
-- click flush, whose updates stay HOT.
CREATE UNIQUE INDEX urls_code_lower_idx ON urls (lower(code));

ALTER TABLE urls
  ADD COLUMN title TEXT,
  ADD COLUMN description TEXT,
  -- After this instant the link answers as expired.
  ADD COLUMN expires_at TIMESTAMPTZ,
  -- After this many clicks the link answers as exhausted.
  ADD COLUMN max_clicks INTEGER CHECK (max_clicks > 0),
  -- A self-describing scrypt hash; null: no password.
  ADD COLUMN password_hash TEXT,
  -- The last change by its owner (PATCH), null until then.
  ADD COLUMN updated_at TIMESTAMPTZ,
  -- Deleted by its owner: the row stays, so the code is not handed out again while it
  -- exists and its owner can still read its stats.
  ADD COLUMN deleted_at TIMESTAMPTZ,
  -- Disabled by moderation; disabled_reason says why: 'abuse' (the link itself), 'host'
  -- (its target host was banned), 'account' (its owner's account was disabled).
  ADD COLUMN disabled_at TIMESTAMPTZ,
  ADD COLUMN disabled_reason TEXT CHECK (disabled_reason IN ('abuse', 'host', 'account'));

-- Codes of deleted links. The cleanup job may still remove a deleted link's row (it removes
-- every old unclicked row); this table keeps the random draw from handing its code out again.
CREATE TABLE retired_codes (
  code TEXT PRIMARY KEY,
  retired_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- A lookup now answers from these columns too: a change to any of them evicts the code
-- from every instance's cache (the function is migration 6's). Still not the click flush,
-- which sets clicks alone.
DROP TRIGGER urls_evict_changed ON urls;
CREATE TRIGGER urls_evict_changed
  AFTER UPDATE OF code, original_url, expires_at, max_clicks, password_hash, deleted_at, disabled_at ON urls
  FOR EACH ROW WHEN (
    OLD.code IS DISTINCT FROM NEW.code
    OR OLD.original_url IS DISTINCT FROM NEW.original_url
    OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
    OR OLD.max_clicks IS DISTINCT FROM NEW.max_clicks
    OR OLD.password_hash IS DISTINCT FROM NEW.password_hash
    OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
    OR OLD.disabled_at IS DISTINCT FROM NEW.disabled_at)
  EXECUTE FUNCTION url_cache_evict();
