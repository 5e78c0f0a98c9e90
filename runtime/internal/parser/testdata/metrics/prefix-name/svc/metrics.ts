import { Counter } from "encore.dev/metrics";

export const requests = new Counter("e_requests_total");
