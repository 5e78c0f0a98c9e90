-- Links made by an import (the transfers service's jobs), by the import and the line of
-- its file: a batch sent again after a crash finds its rows here and stores none twice.
CREATE TABLE imported_links (
  import_id TEXT NOT NULL,
  line INTEGER NOT NULL,
  link_id INTEGER NOT NULL REFERENCES urls (id) ON DELETE CASCADE,
  PRIMARY KEY (import_id, line)
);
CREATE INDEX imported_links_link_id_idx ON imported_links (link_id);
