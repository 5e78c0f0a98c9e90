-- Tags: a workspace's names for grouping its links (written by the links service). A link has
-- any number of its workspace's tags (the links service bounds them); the links list filters
-- by them and each tag has the summed analytics of its links.
CREATE TABLE tags (
  id INTEGER GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- The workspace's id (the workspaces service's; a personal workspace's is its user's id).
  workspace_id TEXT NOT NULL,
  -- As its creator wrote it, trimmed; unique in a workspace in any case ("Sale" and "sale" are one tag).
  name TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX tags_workspace_name_idx ON tags (workspace_id, lower(name));

-- Which links have which tags. A link's row stays when it is deleted (soft delete), and so do
-- its tags: its owner still reads it, and its clicks still count in its tags' analytics. A
-- tag deleted, or a link's row removed by the cleanup job, takes its rows here with it.
-- Neither key of urls changes under the click flush, so these references cost its HOT
-- updates nothing, and the key-share lock a new row here takes on its link does not
-- conflict with the flush's row lock.
CREATE TABLE link_tags (
  link_id INTEGER NOT NULL REFERENCES urls (id) ON DELETE CASCADE,
  tag_id INTEGER NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
  -- A link's tags (the Link shape, the filter's EXISTS), and the cascade from urls.
  PRIMARY KEY (link_id, tag_id)
);
-- A tag's links: its link count, its analytics, the filter driven from the tag, and the cascade from tags.
CREATE INDEX link_tags_tag_id_idx ON link_tags (tag_id, link_id);
