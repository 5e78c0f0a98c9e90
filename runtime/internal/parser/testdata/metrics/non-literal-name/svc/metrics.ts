import { Counter } from "encore.dev/metrics";

const name = "orders_processed";
export const orders = new Counter(name);
