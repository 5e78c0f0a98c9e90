CREATE TABLE readings (
    id          BIGSERIAL PRIMARY KEY,
    sensor      TEXT NOT NULL,
    value       DOUBLE PRECISION NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE rollups (
    sensor      TEXT PRIMARY KEY,
    readings    INTEGER NOT NULL,
    average     DOUBLE PRECISION NOT NULL,
    maximum     DOUBLE PRECISION NOT NULL,
    computed_at TIMESTAMPTZ NOT NULL
);
