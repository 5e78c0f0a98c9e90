CREATE TABLE users (
    id       SERIAL PRIMARY KEY,
    name     TEXT NOT NULL,
    -- Chosen later, if ever: NULL until then.
    nickname TEXT
);
