import { api } from "encore.dev/api";
import { stringify } from "csv-stringify/sync";
import { csvColumns } from "./formats/this-app";
import { downloadHeaders } from "./raw-http";

/** Two example rows under the header: a plain link, and one with every option. */
const template = stringify([
  [...csvColumns],
  ["https://example.com/spring-sale", "", "", "", "", "", "", "", "", ""],
  ["https://example.com/docs/start", "docs-start", "Getting started", "The guide for new users", "docs,onboarding", "2030-01-31T12:00:00Z", "1000", "2024-05-01T09:30:00Z", "42", ""],
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
