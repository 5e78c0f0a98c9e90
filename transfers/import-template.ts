import { api } from "encore.dev/api";
import { stringify } from "csv-stringify/sync";
import { csvColumns } from "./formats/this-app";
import { downloadHeaders } from "./raw-http";

type Column = (typeof csvColumns)[number];

/** A row of the template by column name: the columns it leaves out are empty. */
const row = (values: Partial<Record<Column, string>>) => csvColumns.map((column) => values[column] ?? "");

/**
 * Two example rows under the header: a plain link, and one with every option but a domain
 * (which only a workspace with that domain verified can take: the template imports as it is).
 */
const template = stringify([
  [...csvColumns],
  row({ url: "https://example.com/spring-sale" }),
  row({
    url: "https://example.com/docs/start",
    alias: "docs-start",
    title: "Getting started",
    description: "The guide for new users",
    tags: "docs,onboarding",
    expiresAt: "2030-01-31T12:00:00Z",
    maxClicks: "1000",
    createdAt: "2024-05-01T09:30:00Z",
    clicks: "42",
    redirectType: "301",
    forwardQuery: "false",
    startsAt: "2024-05-02T00:00:00Z",
    fallbackUrl: "https://example.com/docs",
    allowIndexing: "true",
    previewTitle: "Start here",
    previewDescription: "Everything a new user needs, on one page",
    previewImage: "https://example.com/docs/start.png",
    rules: JSON.stringify([
      { device: "ios", url: "https://example.com/docs/start-ios" },
      { countries: ["DE", "AT"], url: "https://example.com/de/docs/start" },
    ]),
  }),
]);

/**
 * GET /workspaces/:id/import-template: the CSV an import reads (format=csv), its columns
 * named in the header and two example rows (docs/app.md, "Import and export", says what
 * each column holds). The same for every workspace; for any signed-in caller.
 */
export const importTemplate = api.raw({ expose: true, auth: true, method: "GET", path: "/workspaces/:id/import-template" }, async (_req, res) => {
  res.writeHead(200, downloadHeaders("text/csv; charset=utf-8", "links-import-template.csv"));
  res.end(template);
});
