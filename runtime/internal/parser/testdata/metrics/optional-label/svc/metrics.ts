import { CounterGroup } from "encore.dev/metrics";

interface Labels {
  region?: string;
}

// @ts-expect-error -- an optional label, for the parser to refuse
export const visits = new CounterGroup<Labels>("visits");
