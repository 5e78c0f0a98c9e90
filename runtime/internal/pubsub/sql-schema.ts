import type { Migration } from "../sql/migrations.ts";

/** The runtime's own database for the SQL provider's messages; app databases are never touched. */
export const pubsubDatabaseName = "encore_pubsub";

/**
 * One row per (subscription, message) still to be handled, carrying the message
 * (since version 3; before, messages had a table of their own). A delivery is `ready`
 * (due at visible_at), `leased` (being handled until visible_at, its ack deadline;
 * after that it is due again) or `dead`.
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
  {
    // Each delivery carries its message: publishing writes one row per subscription
    // instead of a message and its deliveries, claiming reads no second table, and
    // acknowledging deletes one row with no check of the other subscriptions. A topic with
    // several subscriptions stores its payload once per subscription. Deliveries pending
    // now take their message along; messages without any (never to be delivered) go.
    // Instances of the earlier version fail to publish or claim once this has run, so
    // they are to be stopped before (or as) the new version starts.
    version: 3,
    name: "deliveries_carry_messages",
    file: "runtime/internal/pubsub/sql-schema.ts",
    sql: `
      ALTER TABLE pubsub_delivery
        ADD COLUMN payload text,
        ADD COLUMN published_at timestamptz NOT NULL DEFAULT now(),
        ADD COLUMN traceparent text;
      UPDATE pubsub_delivery d
      SET payload = m.payload, published_at = m.published_at, traceparent = m.traceparent
      FROM pubsub_message m WHERE m.id = d.message_id;
      ALTER TABLE pubsub_delivery ALTER COLUMN payload SET NOT NULL;
      DROP INDEX pubsub_delivery_message;
      DROP TABLE pubsub_message CASCADE;
    `,
  },
  {
    // Ordered topics: a delivery carries its message's ordering key (NULL on topics
    // without orderingAttribute) and a sequence number in publish order, so a claim can
    // take only the oldest undelivered delivery of each key (sql-deliveries.ts). Both
    // columns have defaults, so an instance of version 3 still publishing (unordered
    // messages) or claiming works on, unchanged. Adding the serial column rewrites the
    // table once: acknowledgements of deliveries leased before that (found by where the
    // row was) miss, and those messages come back after their ack deadline.
    version: 4,
    name: "ordering_keys",
    file: "runtime/internal/pubsub/sql-schema.ts",
    sql: `
      ALTER TABLE pubsub_delivery
        ADD COLUMN ordering_key text,
        ADD COLUMN seq bigserial;
      CREATE INDEX pubsub_delivery_ordering ON pubsub_delivery (topic, subscription, ordering_key, seq)
        WHERE ordering_key IS NOT NULL AND state <> 'dead';
    `,
  },
];
