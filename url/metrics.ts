import { Gauge } from "encore.dev/metrics";

// The url service's own metrics (exported at /metrics with service="url" when the
// runtime's metrics are on; no-ops otherwise). The runtime already counts requests,
// pub/sub deliveries, cron runs and pool use; these cover what only the service knows.

/** Events stored in the outbox and not yet published: grows while pub/sub is away. */
export const outboxRows = new Gauge("url_outbox_rows");

/** Age in seconds of the oldest event waiting in the outbox (0 when empty): the relay's lag. */
export const outboxLagSeconds = new Gauge("url_outbox_lag_seconds");
