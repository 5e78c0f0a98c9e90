-- Moderation (the moderation service drives it through url/moderation.ts): target hosts
-- an administrator banned, accounts an administrator disabled, and what a link's
-- disabled_reason follows from.

-- New links to a banned host, or to any of its subdomains, are refused; existing ones
-- are disabled with reason 'host'. host is as limits/links.ts bareHost compares hosts.
CREATE TABLE banned_hosts (
  host TEXT PRIMARY KEY,
  reason TEXT,
  banned_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  -- The administrator's user id.
  banned_by TEXT NOT NULL
);

-- Accounts whose links are disabled with reason 'account'. The users service refuses
-- their logins, tokens and keys; this copy lets a link's other causes be weighed here
-- when one of them ends (link_standing_disable below).
CREATE TABLE disabled_accounts (
  user_id TEXT PRIMARY KEY,
  disabled_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Every instance keeps the banned hosts in memory to check new links without a query
-- (url/moderation/banned-hosts.ts): any change tells them to read the table again, when
-- its transaction commits. Bans are rare, so the whole set is reread rather than patched.
CREATE FUNCTION url_banned_hosts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('url_banned_hosts', '');
  RETURN NULL;
END $$;

CREATE TRIGGER banned_hosts_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON banned_hosts
  FOR EACH STATEMENT EXECUTE FUNCTION url_banned_hosts_changed();

-- The host of a stored link's URL, as bareHost has it: lower case, without trailing dots,
-- an IPv6 address in brackets. Stored URLs are WHATWG-normalised (url/shortening/target.ts),
-- so the host is what follows the scheme and any user info, up to a port or the path.
CREATE FUNCTION link_host(url TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT rtrim(lower(substring(url FROM '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?(\[[^]]*\]|[^/?#:]*)')), '.')
$$;

-- Whether host is domain or one of its subdomains (a.evil.example is within evil.example;
-- notevil.example is not).
CREATE FUNCTION host_within(host TEXT, domain TEXT) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT host = domain OR right(host, length(domain) + 1) = '.' || domain
$$;

-- Why a link must stay disabled once a moderator's cause of it ends (a link enabled, a host
-- unbanned, an account enabled): 'host' while its host is banned, else 'account' while its
-- owner's account is disabled, else null (it may redirect again). 'abuse' is never derived:
-- only an administrator sets and clears it.
CREATE FUNCTION link_standing_disable(url TEXT, created_by TEXT) RETURNS TEXT LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN EXISTS (SELECT 1 FROM banned_hosts b WHERE host_within(link_host(url), b.host)) THEN 'host'
    WHEN EXISTS (SELECT 1 FROM disabled_accounts a WHERE a.user_id = created_by) THEN 'account'
  END
$$;

-- Unbanning a host and enabling an account look among the disabled links only. Neither
-- column is written by the click flush, whose updates stay HOT.
CREATE INDEX urls_disabled_idx ON urls (disabled_reason) WHERE disabled_at IS NOT NULL;
