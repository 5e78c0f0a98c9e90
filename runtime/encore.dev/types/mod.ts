// encore.dev/types: shared type aliases and the Decimal class.
type durationUnit = "ns" | "µs" | "ms" | "s" | "m" | "h";
type durationComponent = `${number}${durationUnit}`;

/** A length of time such as "10s", "500ms", "1h30m" or "1h 30m". */
export type DurationString = durationComponent | `${durationComponent}${durationComponent}` | `${durationComponent} ${durationComponent}`;

export { Decimal, type ToDecimal } from "../../internal/decimal/decimal.ts";
