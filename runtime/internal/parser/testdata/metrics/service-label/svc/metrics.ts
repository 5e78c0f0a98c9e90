import { CounterGroup } from "encore.dev/metrics";

interface Labels {
  service: string;
  success: boolean;
}

export const calls = new CounterGroup<Labels>("calls");
