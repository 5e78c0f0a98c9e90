import { CounterGroup } from "encore.dev/metrics";

export const visits = new CounterGroup("visits");
