CREATE TABLE urls (
    id SERIAL PRIMARY KEY,
    code TEXT NOT NULL,
    original_url TEXT NOT NULL,
    clicks INTEGER NOT NULL DEFAULT 0,
    created_at TIMESTAMPTZ DEFAULT now(),
    -- The unique constraint's index is urls_code_idx, the index lookups use: one index, not two.
    CONSTRAINT urls_code_idx UNIQUE (code)
);
