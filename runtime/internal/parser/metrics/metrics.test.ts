import { describe, expect, it } from "vitest";
import { fixture, lineOf, parseError } from "../../../test/parser-fixtures.ts";
import { parseApp } from "../mod.ts";

describe("metrics", () => {
  const meta = parseApp(fixture("metrics/valid"));

  it("reads each encore.dev/metrics declaration with its kind, snake_case labels and users, sorted by name", () => {
    expect(meta.metrics).toEqual([
      { name: "active_connections", kind: "gauge", labels: ["region"], service: "svc", usedBy: ["svc"], declaredIn: { file: "svc/metrics.ts", line: 21 } },
      // Declared outside any service and used by one: its series carry that service.
      { name: "cache_size", kind: "gauge", labels: [], service: null, usedBy: ["other"], declaredIn: { file: "lib/shared.ts", line: 4 } },
      {
        name: "jobs_processed",
        kind: "counter",
        labels: ["job_type", "priority", "region", "success"],
        service: "svc",
        usedBy: ["svc"],
        declaredIn: { file: "svc/metrics.ts", line: 12 },
      },
      // Incremented by two services: each series is labelled with the service handling the request.
      { name: "orders_processed", kind: "counter", labels: [], service: "svc", usedBy: ["other", "svc"], declaredIn: { file: "svc/metrics.ts", line: 3 } },
      { name: "queue_length", kind: "gauge", labels: [], service: "svc", usedBy: ["svc"], declaredIn: { file: "svc/metrics.ts", line: 15 } },
    ]);
  });
});

interface Case {
  readonly fixture: string;
  /** Text on the line of svc/metrics.ts the error must point at. */
  readonly at: string;
  readonly message: string;
}

const CASES: readonly Case[] = [
  {
    fixture: "prefix-name",
    at: '"e_requests_total"',
    message: 'invalid metric name "e_requests_total": the prefix "e_" is reserved for the runtime\'s own metrics',
  },
  {
    fixture: "camel-name",
    at: '"ordersProcessed"',
    message: 'invalid metric name "ordersProcessed": a name holds only lowercase letters, digits and underscores (snake_case)',
  },
  { fixture: "non-literal-name", at: "new Counter(name)", message: "the name passed to new Counter(...) must be a string literal" },
  {
    fixture: "in-function",
    at: 'new Gauge("queue_length")',
    message: 'metric "queue_length" must be declared at package level, as `const name = new Gauge("queue_length")` at the top of a file',
  },
  { fixture: "duplicate-name", at: 'new Gauge("orders")', message: 'metric "orders" is already declared at svc/metrics.ts:3' },
  {
    fixture: "service-label",
    at: "service: string;",
    message: 'label "service" of metric "calls": "service" is reserved, the runtime adds it to every series',
  },
  { fixture: "label-type", at: "since: Date;", message: 'label "since" of metric "sessions" must be a string, number or boolean, not "Date"' },
  {
    fixture: "optional-label",
    at: "region?: string;",
    message: 'label "region" of metric "visits" must be a string, number or boolean, not "string | undefined"',
  },
  {
    fixture: "group-without-labels",
    at: 'new CounterGroup("visits")',
    message: 'new CounterGroup("visits") needs its labels\' interface as a type argument: new CounterGroup<Labels>("visits")',
  },
];

describe("metric declarations breaking Encore's rules are refused at generation, naming the rule", () => {
  it.each(CASES)("$fixture", (testCase) => {
    const root = fixture(`metrics/${testCase.fixture}`);
    const line = lineOf(root, "svc/metrics.ts", testCase.at);
    expect(parseError(root).message).toBe(`svc/metrics.ts:${line}: ${testCase.message}`);
  });
});
