import { Gauge } from "encore.dev/metrics";

// Declared outside any service, used by one: its series carry that service.
export const cacheSize = new Gauge("cache_size");
