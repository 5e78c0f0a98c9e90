-- Custom domains, how a link redirects, targeting rules and social previews.

-- A workspace's own domain (a host name, lower case, no port). Links made on it answer on it
-- only; links without one answer on the instance's default host. A domain is usable once its
-- check passed (verified_at): the instance fetched the token through the domain and got it
-- back, so the domain routes here. A host belongs to one workspace on the whole instance.
CREATE TABLE domains (
  host TEXT PRIMARY KEY CHECK (host = lower(host)),
  workspace_id TEXT NOT NULL,
  -- What GET /.well-known/... must answer through the domain for its check to pass.
  token TEXT NOT NULL,
  verified_at TIMESTAMPTZ,
  -- Where GET / on the domain sends visitors; null: the domain's own page.
  root_url TEXT,
  -- Where an unknown code on the domain sends visitors; null: the domain's 404 page.
  not_found_url TEXT,
  created_by TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX domains_workspace_id_idx ON domains (workspace_id);

-- Every instance keeps the domains in memory (they are few and asked on every request); a
-- change is sent on url_domains_changed when it commits, and each instance reads them again.
CREATE FUNCTION url_domains_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('url_domains_changed', '');
  RETURN NULL;
END $$;
CREATE TRIGGER domains_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON domains
  FOR EACH STATEMENT EXECUTE FUNCTION url_domains_changed();

ALTER TABLE urls
  -- The custom domain the link answers on; null: the default host. urls.code stays unique over
  -- the whole table, so an alias taken on one domain is taken on every domain. A domain with
  -- links cannot be removed (RESTRICT): its links would move to another host unasked.
  ADD COLUMN domain TEXT REFERENCES domains (host) ON DELETE RESTRICT,
  -- The status a browser's redirect answers with.
  ADD COLUMN redirect_type SMALLINT NOT NULL DEFAULT 302 CHECK (redirect_type IN (301, 302, 307, 308)),
  -- Whether the short link's query string is added to the target (the target's own
  -- parameters win on a clash).
  ADD COLUMN forward_query BOOLEAN NOT NULL DEFAULT true,
  -- Before this instant the link answers as not started yet.
  ADD COLUMN starts_at TIMESTAMPTZ,
  -- Where the link sends visitors once expired or out of clicks, instead of its 404.
  ADD COLUMN fallback_url TEXT,
  -- Without it, redirects carry X-Robots-Tag: noindex.
  ADD COLUMN allow_indexing BOOLEAN NOT NULL DEFAULT false,
  -- Ordered targeting rules, the first that matches wins: [{id, device|countries|languages|query, url}].
  ADD COLUMN redirect_rules JSONB,
  -- The social preview card served to preview bots.
  ADD COLUMN preview_title TEXT,
  ADD COLUMN preview_description TEXT,
  ADD COLUMN preview_image TEXT;

-- Links on a domain, for the domain's removal check and its link list.
CREATE INDEX urls_domain_idx ON urls (domain) WHERE domain IS NOT NULL;

-- A lookup now answers from the new columns too (see migration 11 for the list's reasons).
DROP TRIGGER urls_evict_changed ON urls;
CREATE TRIGGER urls_evict_changed
  AFTER UPDATE OF code, original_url, expires_at, max_clicks, password_hash, deleted_at, disabled_at, disabled_reason,
    domain, redirect_type, forward_query, starts_at, fallback_url, allow_indexing, redirect_rules,
    preview_title, preview_description, preview_image ON urls
  FOR EACH ROW WHEN (
    OLD.code IS DISTINCT FROM NEW.code
    OR OLD.original_url IS DISTINCT FROM NEW.original_url
    OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
    OR OLD.max_clicks IS DISTINCT FROM NEW.max_clicks
    OR OLD.password_hash IS DISTINCT FROM NEW.password_hash
    OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
    OR OLD.disabled_at IS DISTINCT FROM NEW.disabled_at
    OR OLD.disabled_reason IS DISTINCT FROM NEW.disabled_reason
    OR OLD.domain IS DISTINCT FROM NEW.domain
    OR OLD.redirect_type IS DISTINCT FROM NEW.redirect_type
    OR OLD.forward_query IS DISTINCT FROM NEW.forward_query
    OR OLD.starts_at IS DISTINCT FROM NEW.starts_at
    OR OLD.fallback_url IS DISTINCT FROM NEW.fallback_url
    OR OLD.allow_indexing IS DISTINCT FROM NEW.allow_indexing
    OR OLD.redirect_rules IS DISTINCT FROM NEW.redirect_rules
    OR OLD.preview_title IS DISTINCT FROM NEW.preview_title
    OR OLD.preview_description IS DISTINCT FROM NEW.preview_description
    OR OLD.preview_image IS DISTINCT FROM NEW.preview_image)
  EXECUTE FUNCTION url_cache_evict();

-- Which targeting rule sent a click: its own counters, one row per link, hour, humans or
-- bots and rule, written in the flush that writes the click's link_clicks_hourly row. Not a
-- column of that table's key: a replica of the previous release, still running during a
-- rolling upgrade, adds to link_clicks_hourly through an ON CONFLICT that names its key,
-- which must stay a unique index. A click no rule sent has no row here: the rules
-- breakdown counts it as other (its hour's clicks less its rules').
CREATE TABLE link_clicks_rules_hourly (
  code TEXT NOT NULL,
  hour TIMESTAMPTZ NOT NULL,
  bot BOOLEAN NOT NULL,
  rule TEXT NOT NULL,
  clicks BIGINT NOT NULL,
  PRIMARY KEY (code, hour, bot, rule)
)
WITH (fillfactor = 50);
