import { Counter } from "encore.dev/metrics";

export const orders = new Counter("ordersProcessed");
