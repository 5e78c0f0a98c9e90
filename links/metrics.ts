import { Gauge } from "encore.dev/metrics";

// The links service's own metrics (exported at /metrics with service="links" when the
// runtime's metrics are on; no-ops otherwise). Their names keep the url_ prefix they had
// when links were part of the url service, so dashboards and alerts go on working.

/** Events stored in the outbox and not yet published: grows while pub/sub is away. */
export const outboxRows = new Gauge("url_outbox_rows");

/** Age in seconds of the oldest event waiting in the outbox (0 when empty): the relay's lag. */
export const outboxLagSeconds = new Gauge("url_outbox_lag_seconds");
