import { describe, expect, it } from "vitest";
import { fixture } from "../../../test/parser-fixtures.ts";
import { parseApp } from "../mod.ts";

// What the dashboard's flow diagram draws: who calls, publishes to, subscribes to and uses what.
describe("how services depend on each other and on resources", () => {
  const meta = parseApp(fixture("flow"));

  it("lists the services each one calls through ~encore/clients, by name or namespace import, without itself", () => {
    expect(meta.services.map((s) => [s.name, s.calls])).toEqual([
      ["billing", []],
      ["events", []],
      ["mailer", ["billing"]],
      ["shop", ["billing"]],
    ]);
  });

  it("finds a topic's publishers in other services than the declaring one, through renamed and namespace imports and Publisher refs", () => {
    expect(meta.topics.map((t) => [t.name, t.service, t.publishers])).toEqual([
      ["audit", "events", ["mailer"]],
      ["order-placed", "events", ["shop"]],
    ]);
  });

  it("resolves each subscription's topic to its declaration in another service", () => {
    expect(meta.subscriptions.map((s) => [s.name, s.service, s.topic])).toEqual([
      ["log", "mailer", "audit"],
      ["send-receipt", "mailer", "order-placed"],
    ]);
  });

  it("says which services use a database or bucket: the declaring one, those naming its variable, and those naming it with .named()", () => {
    expect(meta.databases.map((d) => [d.name, d.usedBy])).toEqual([["charges", ["billing", "mailer"]]]);
    expect(meta.buckets.map((b) => [b.name, b.usedBy])).toEqual([["receipts", ["billing", "mailer", "shop"]]]);
  });
});
