-- The user who shortened the URL (the auth handler's userID); null for anonymous
-- shortens and every row stored before accounts existed.
ALTER TABLE urls ADD COLUMN created_by TEXT;
-- GET /me/urls pages through one user's links, newest first. created_by is never
-- updated, so this index does not stop the click flush's HOT updates.
CREATE INDEX urls_created_by_idx ON urls (created_by, id DESC) WHERE created_by IS NOT NULL;
