import { beforeAll, describe, expect, it } from "vitest";
import type { AppMeta } from "../../meta/types.ts";
import { fixture } from "../../../test/parser-fixtures.ts";
import { parseApp } from "../mod.ts";

let meta: AppMeta;
beforeAll(() => {
  meta = parseApp(fixture("resources"));
});

describe("services and resources", () => {
  it("gives files to the nearest service folder", () => {
    expect(meta.services.map((s) => [s.name, s.dir, s.endpoints.map((e) => e.name)])).toEqual([
      ["billing", "billing", []],
      ["invoices", "billing/invoices", ["count"]],
      ["reports", "reports", []],
    ]);
    expect(meta.services[1]?.endpoints[0]?.path).toBe("/invoices.count");
  });

  it("reads every database declaration with the services using it, sorted by name", () => {
    expect(meta.databases).toEqual([
      {
        name: "analytics",
        service: "reports",
        migrationsDir: "reports/db/migrations",
        migrationsSource: "drizzle",
        usedBy: ["reports"],
        declaredIn: { file: "reports/store.ts", line: 4 },
      },
      {
        name: "billing",
        service: "billing",
        migrationsDir: "billing/migrations",
        migrationsSource: "sql",
        // invoices names it with SQLDatabase.named("billing").
        usedBy: ["billing", "invoices"],
        declaredIn: { file: "billing/db.ts", line: 4 },
      },
      {
        name: "ledger",
        service: "reports",
        migrationsDir: "reports/prisma/migrations",
        migrationsSource: "prisma",
        usedBy: ["reports"],
        declaredIn: { file: "reports/store.ts", line: 14 },
      },
      {
        name: "scratch",
        service: "invoices",
        migrationsDir: null,
        migrationsSource: "sql",
        usedBy: ["invoices"],
        declaredIn: { file: "billing/invoices/store.ts", line: 8 },
      },
    ]);
  });

  it("lists secrets once each, sorted", () => {
    expect(meta.secrets).toEqual(["MailgunKey", "ReportsKey", "StripeKey"]);
  });

  it("stamps the metadata version", () => {
    expect(meta.version).toBe(9);
  });
});
