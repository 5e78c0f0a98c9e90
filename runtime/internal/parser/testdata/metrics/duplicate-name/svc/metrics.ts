import { Counter, Gauge } from "encore.dev/metrics";

export const orders = new Counter("orders");
export const alsoOrders = new Gauge("orders");
