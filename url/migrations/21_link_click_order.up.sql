-- GET /links?sort=clicks lists a workspace's links most clicked first. No index of urls may
-- hold clicks: the click flush updates that column constantly, and an update that changes an
-- indexed column is not heap-only (HOT), so every flushed click would write an entry into
-- each of urls' dozen indexes (migration 3). So the list read and sorted all of a workspace's
-- links for each page: 80 to 100 ms at 100,000 links.
--
-- Here each workspace link has a row giving its clicks' order of magnitude, kept by the
-- triggers below in the transaction that changes the count, and indexed by workspace: 0 for
-- fewer than 16 clicks, then the bit length of clicks / 16 (1 for 16 to 31, 2 for 32 to 63,
-- ...). A page reads the links of the highest magnitudes first and sorts each magnitude's
-- links by their clicks, stopping once the page is full: the first page of a workspace with
-- a page of links clicked 16 times or more reads about a page of links (a workspace with
-- fewer sorts its links of fewer than 16 clicks, as every page did before). A link's
-- magnitude changes when its clicks reach 16, then each time they double (at most 27
-- times), and only then does a flush write here, a row and its index entry: a link's first
-- 15 clicks cost none of it, and urls itself gains no index, so its updates stay HOT.
CREATE FUNCTION click_magnitude(clicks INTEGER) RETURNS SMALLINT LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT length(ltrim((greatest(clicks, 0) >> 4)::bit(32)::text, '0'))::smallint
$$;

CREATE TABLE link_click_order (
  link_id INTEGER PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  magnitude SMALLINT NOT NULL
);
CREATE INDEX link_click_order_workspace_idx ON link_click_order (workspace_id, magnitude DESC, link_id);

-- A workspace link made: its row. Row by row, so that an anonymous link (the common shorten)
-- costs nothing but the WHEN.
CREATE FUNCTION link_click_order_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO link_click_order (link_id, workspace_id, magnitude) VALUES (NEW.id, NEW.workspace_id, click_magnitude(NEW.clicks));
  RETURN NULL;
END $$;
CREATE TRIGGER urls_click_order_added AFTER INSERT ON urls
  FOR EACH ROW WHEN (NEW.workspace_id IS NOT NULL)
  EXECUTE FUNCTION link_click_order_added();

-- Clicks added: its magnitude, when it changed. The WHEN is integer arithmetic the flush pays
-- per row: two counts of zero or more have the same bit length exactly when their exclusive
-- or is at most the smaller, here of the counts / 16.
CREATE FUNCTION link_click_order_clicked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE link_click_order SET magnitude = click_magnitude(NEW.clicks) WHERE link_id = NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER urls_click_order_clicked AFTER UPDATE OF clicks ON urls
  FOR EACH ROW WHEN (NEW.workspace_id IS NOT NULL
    AND (((OLD.clicks >> 4) # (NEW.clicks >> 4)) > least(OLD.clicks >> 4, NEW.clicks >> 4) OR least(OLD.clicks, NEW.clicks) < 0))
  EXECUTE FUNCTION link_click_order_clicked();

-- Links removed (the cleanup job removes hundreds of thousands in a run): their rows, in one
-- statement per statement of the cleanup's.
CREATE FUNCTION link_click_order_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM link_click_order o USING removed r WHERE o.link_id = r.id;
  RETURN NULL;
END $$;
CREATE TRIGGER urls_click_order_removed AFTER DELETE ON urls
  REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION link_click_order_removed();

CREATE FUNCTION link_click_order_emptied() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE link_click_order;
  RETURN NULL;
END $$;
CREATE TRIGGER urls_click_order_truncated AFTER TRUNCATE ON urls
  FOR EACH STATEMENT EXECUTE FUNCTION link_click_order_emptied();

-- The links stored so far. The triggers were made first, in this transaction, and writers of
-- urls wait for it to end (the triggers' lock), so no count changes unseen meanwhile.
INSERT INTO link_click_order (link_id, workspace_id, magnitude)
SELECT id, workspace_id, click_magnitude(clicks) FROM urls WHERE workspace_id IS NOT NULL;
