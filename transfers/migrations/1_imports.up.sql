CREATE TABLE imports (
  -- Random, URL-safe: named in URLs and in the object names of its file's parts.
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  -- The account that uploaded the file: the imported links' creator.
  created_by TEXT NOT NULL,
  format TEXT NOT NULL CHECK (format IN ('csv', 'json', 'kutt', 'shlink', 'yourls', 'bitly')),
  file_name TEXT,
  -- False: every row gets a random code (the file's aliases are not kept).
  keep_aliases BOOLEAN NOT NULL,
  -- uploading: parts are being stored; queued: waiting for its first turn; running; done; failed (error says why).
  status TEXT NOT NULL CHECK (status IN ('uploading', 'queued', 'running', 'done', 'failed')),
  bytes BIGINT NOT NULL DEFAULT 0,
  -- The file's parts in the bucket: <id>/0, <id>/1, ...
  parts INTEGER NOT NULL DEFAULT 0,
  -- Rows in the file, counted as it was uploaded.
  total_rows INTEGER NOT NULL DEFAULT 0,
  -- Rows done (imported or failed), in file order: a resumed job starts after them.
  rows_read INTEGER NOT NULL DEFAULT 0,
  imported INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  finished_at TIMESTAMPTZ
);
CREATE INDEX imports_workspace_idx ON imports (workspace_id, created_at DESC, id DESC);

CREATE TABLE import_errors (
  import_id TEXT NOT NULL REFERENCES imports (id) ON DELETE CASCADE,
  line INTEGER NOT NULL,
  message TEXT NOT NULL,
  PRIMARY KEY (import_id, line)
);
