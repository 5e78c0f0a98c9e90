-- Reports of abusive links by visitors (POST /reports), the queue administrators work through
-- (GET /admin/reports), and what GET /admin/links needs to stay fast over every link of an
-- instance. Here, beside urls, because a report is about a link: the admin list filters and
-- sorts links by their open reports, and a link's reports go when its row goes.
CREATE TABLE link_reports (
  id BIGSERIAL PRIMARY KEY,
  link_id INTEGER NOT NULL REFERENCES urls (id) ON DELETE CASCADE,
  reason TEXT NOT NULL CHECK (reason IN ('spam', 'phishing', 'malware', 'illegal', 'other')),
  details TEXT CHECK (char_length(details) <= 1000),
  -- Given by the reporter for an answer; optional.
  email TEXT,
  -- The reporter's address key as an HMAC under link_report_key (links/reports/reporter.ts),
  -- never in clear: it tells one reporter's repeats of an open report apart, and is
  -- cleared when the report is resolved.
  reporter TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  -- Set when an administrator dismissed the link's open reports or disabled the link.
  resolved_at TIMESTAMPTZ,
  resolution TEXT CHECK (resolution IN ('dismissed', 'disabled')),
  -- The administrator's user id.
  resolved_by TEXT,
  CHECK ((resolved_at IS NULL) = (resolution IS NULL) AND (resolved_at IS NULL) = (resolved_by IS NULL)),
  CHECK (resolved_at IS NOT NULL OR reporter IS NOT NULL)
);
-- The HMAC key of reporters' addresses: random, made here once, never leaving the app. A
-- plain hash of an IPv4 address is undone by trying all 2^32; without the key it is not.
CREATE TABLE link_report_key (
  only_row BOOLEAN PRIMARY KEY DEFAULT true CHECK (only_row),
  key TEXT NOT NULL
);
INSERT INTO link_report_key (key) VALUES (md5(random()::text || clock_timestamp()::text) || md5(gen_random_uuid()::text));
-- One open report per link and reporter: the same address reporting the same link again
-- counts once. Also the index the open reports of a link are counted from.
CREATE UNIQUE INDEX link_reports_open_idx ON link_reports (link_id, reporter) WHERE resolved_at IS NULL;
-- The resolved queue, newest resolution first, read in order a page at a time.
CREATE INDEX link_reports_resolved_idx ON link_reports (resolved_at DESC, link_id DESC) WHERE resolved_at IS NOT NULL;

-- GET /admin/links over every link (a million and more). None of these columns is written
-- by the click flush, whose updates stay HOT.
-- Search by a substring of the code, URL or title: a trigram index on the three together
-- (a newline between them, which none of them holds), for ILIKE '%…%'. pg_trgm is a
-- trusted extension: the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX urls_search_trgm_idx ON urls
  USING gin ((code || E'\n' || original_url || E'\n' || coalesce(title, '')) gin_trgm_ops);
-- By target host and its subdomains: the host reversed, so that "example.com" and
-- "*.example.com" are a value and a prefix ("moc.elpmaxe" and "moc.elpmaxe.%").
CREATE INDEX urls_host_reversed_idx ON urls (reverse(link_host(original_url)) text_pattern_ops);
-- Deleted links, newest first (status=deleted).
CREATE INDEX urls_deleted_idx ON urls (id DESC) WHERE deleted_at IS NOT NULL;
