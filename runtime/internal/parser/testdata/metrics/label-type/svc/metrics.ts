import { GaugeGroup } from "encore.dev/metrics";

interface Labels {
  region: string;
  since: Date;
}

// Date is not assignable to Encore's label constraint; the type checker may be skipped, the parser is not.
// @ts-expect-error -- a label of the wrong type, for the parser to refuse
export const sessions = new GaugeGroup<Labels>("sessions");
