import { api, APIError } from "encore.dev/api";
import type { IncomingMessage, ServerResponse } from "node:http";
import { analytics } from "~encore/clients";
import { clientAddress } from "../limits/client-address";
import { perDayCsv, perDimensionCsv } from "./exporting/analytics-files";
import { choiceOf, downloadHeaders, pathParam, queryOf } from "./raw-http";
import { transfersConfig } from "./transfers-config";

// Click analytics as CSV files: the answers of GET /:code/analytics and GET
// /workspaces/:id/tags/:tagId/analytics (asked of the analytics service as the caller, so
// its access rules, scopes and read limits hold), per day or per dimension. Small files
// (a range's days, the top values): written at once.

type By = "day" | "dimension";

/** The range parameters passed on as given (from, to, tz: as GET /:code/analytics takes them), per day. */
function rangeOf(req: IncomingMessage) {
  const query = queryOf(req);
  const range: { from?: string; to?: string; tz?: string; interval: "day" } = { interval: "day" };
  for (const name of ["from", "to", "tz"] as const) {
    const value = query.get(name);
    if (value !== null && value !== "") range[name] = value;
  }
  return { by: choiceOf<By>(query, "by", ["day", "dimension"], "day"), range, forwardedFor: clientAddress(req, transfersConfig.trustProxy) };
}

function send(res: ServerResponse, by: By, name: string, answer: Parameters<typeof perDayCsv>[0] & Parameters<typeof perDimensionCsv>[0]): void {
  const body = by === "day" ? perDayCsv(answer) : perDimensionCsv(answer);
  res.writeHead(200, downloadHeaders("text/csv; charset=utf-8", `${name}-analytics-per-${by}.csv`));
  res.end(body);
}

/**
 * GET /links/:code/analytics/export?by=day|dimension[&from][&to][&tz]: one link's click
 * analytics as CSV, per day (day, humans, bots, clicks) or per dimension (dimension,
 * value, humans, bots, clicks). Who may read the link's analytics may export them (an API
 * key with analytics:read). Read-only.
 */
export const exportLinkAnalytics = api.raw({ expose: true, auth: true, method: "GET", path: "/links/:code/analytics/export" }, async (req, res) => {
  const code = pathParam("code");
  const { by, range, forwardedFor } = rangeOf(req);
  send(res, by, code, await analytics.linkAnalytics({ code, ...range, forwardedFor }));
});

/** GET /workspaces/:id/tags/:tagId/analytics/export?by=day|dimension: a tag's, as the link's; any member of the workspace. Read-only. */
export const exportTagAnalytics = api.raw(
  { expose: true, auth: true, method: "GET", path: "/workspaces/:id/tags/:tagId/analytics/export" },
  async (req, res) => {
    const id = pathParam("id");
    const tagId = Number(pathParam("tagId"));
    if (!Number.isInteger(tagId) || tagId < 1) throw APIError.notFound("tag not found");
    const { by, range, forwardedFor } = rangeOf(req);
    send(res, by, `tag-${tagId}`, await analytics.tagAnalytics({ id, tagId, ...range, forwardedFor }));
  },
);
