CREATE TABLE url (
    id TEXT PRIMARY KEY,
    original_url TEXT NOT NULL
);
