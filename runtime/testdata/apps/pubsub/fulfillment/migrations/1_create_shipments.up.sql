CREATE TABLE shipments (
    order_id    TEXT PRIMARY KEY,
    item        TEXT NOT NULL,
    quantity    INTEGER NOT NULL,
    received_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
