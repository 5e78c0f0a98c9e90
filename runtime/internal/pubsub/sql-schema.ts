import type { Migration } from "../sql/migrations.ts";

/** The runtime's own database for the SQL provider's messages; app databases are never touched. */
export const pubsubDatabaseName = "encore_pubsub";

/**
 * One row per message, one row per (subscription, message) still to be handled.
 * A delivery is `ready` (due at visible_at), `leased` (being handled until
 * visible_at, its ack deadline; after that it is due again) or `dead`.
 */
export const pubsubMigrations: Migration[] = [
  {
    version: 1,
    name: "create_pubsub",
    file: "runtime/internal/pubsub/sql-schema.ts",
    sql: `
      CREATE TABLE pubsub_message (
        id uuid PRIMARY KEY,
        topic text NOT NULL,
        payload text NOT NULL,
        published_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE pubsub_delivery (
        topic text NOT NULL,
        subscription text NOT NULL,
        message_id uuid NOT NULL REFERENCES pubsub_message (id) ON DELETE CASCADE,
        state text NOT NULL DEFAULT 'ready' CHECK (state IN ('ready', 'leased', 'dead')),
        attempts integer NOT NULL DEFAULT 0,
        visible_at timestamptz NOT NULL DEFAULT now(),
        last_error text,
        PRIMARY KEY (topic, subscription, message_id)
      );
      CREATE INDEX pubsub_delivery_due ON pubsub_delivery (topic, subscription, visible_at) WHERE state <> 'dead';
      CREATE INDEX pubsub_delivery_message ON pubsub_delivery (message_id);
    `,
  },
  {
    // The publisher's W3C traceparent, so a delivery's trace links to the publishing one.
    // Nullable: instances still running the first version go on publishing without it.
    version: 2,
    name: "message_traceparent",
    file: "runtime/internal/pubsub/sql-schema.ts",
    sql: "ALTER TABLE pubsub_message ADD COLUMN traceparent text;",
  },
];
