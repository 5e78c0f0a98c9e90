import type { IncomingMessage, ServerResponse } from "node:http";
import { api, APIError } from "encore.dev/api";
import { getAuthData } from "~encore/auth";
import { requireScope } from "../access/scopes";
import { clientAddressKey } from "../limits/client-address";
import { linkLimits } from "../limits/links";
import { roleAllowing } from "./access";
import { importFormats, type ImportFormat } from "./formats/formats";
import { importJobs } from "./import-jobs";
import { removeParts } from "./jobs/file-parts";
import { createJob, jobById, markFailed, markQueued, publicJob } from "./jobs/job-store";
import { storeUpload } from "./jobs/upload";
import { db } from "./db";
import { choiceOf, discardRest, pathParam, queryOf, sendJson } from "./raw-http";
import { transfersConfig } from "./transfers-config";

/**
 * POST /workspaces/:id/imports?format=csv|json|kutt|shlink|yourls|bitly[&keepAliases=false][&fileName=…]:
 * the request's body is the file (any content type), read as it arrives and stored in the
 * import-files bucket, its rows counted on the way; then the job is queued and the answer
 * is 202 with the job (GET /workspaces/:id/imports/:importId follows it). For whoever may
 * create links in the workspace (owner, admin, member; an API key with links:write made for
 * it): 404 outside it, 403 for a viewer. Counts as one link against the creation limits
 * (429), however many rows. 400 for a file larger than IMPORT_MAX_BYTES, with more than
 * IMPORT_MAX_ROWS rows, or not of its format (no url column, not the export's layout),
 * with nothing imported. A raw endpoint: a typed one reads the whole body into memory.
 *
 * Publishes: an import-jobs message, which runs the import in the background.
 */
export const uploadImport = api.raw(
  { expose: true, auth: true, method: "POST", path: "/workspaces/:id/imports" },
  async (req, res) => {
    requireScope("links:write");
    const user = getAuthData()!;
    const workspaceId = pathParam("id");
    await roleAllowing(workspaceId, user.userID, "write", "import links");
    const query = queryOf(req);
    const format = choiceOf<ImportFormat>(query, "format", importFormats);
    const keepAliases = choiceOf(query, "keepAliases", ["true", "false"], "true") === "true";
    const fileName = query.get("fileName")?.slice(0, 200) ?? null;
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > transfersConfig.importMaxBytes) {
      await refuseRest(req, res);
      throw APIError.invalidArgument(`the file is larger than ${transfersConfig.importMaxBytes} bytes, the most one import takes (IMPORT_MAX_BYTES)`);
    }
    await linkLimits.count({ address: clientAddressKey(req, transfersConfig.trustProxy), userID: user.userID });
    const importId = await createJob({ workspaceId, createdBy: user.userID, format, fileName, keepAliases });
    let file;
    try {
      // Left unread, not destroyed, when the file is refused part way: refuseRest reads the rest.
      const chunks = req.iterator({ destroyOnReturn: false });
      const body = {
        [Symbol.asyncIterator]: () => chunks,
        get complete() {
          return req.complete;
        },
      };
      file = await storeUpload(importId, body, format, { maxBytes: transfersConfig.importMaxBytes, maxRows: transfersConfig.importMaxRows });
    } catch (err) {
      // A refused file was never an import: nothing of it stays.
      await db.exec`DELETE FROM imports WHERE id = ${importId}`;
      await refuseRest(req, res);
      throw err;
    }
    await markQueued(importId, file.bytes, file.parts, file.rows);
    try {
      await importJobs.publish({ importId });
    } catch (err) {
      // Never queued, the job would wait for ever: it fails, its file goes, and the caller may upload again.
      await markFailed(importId, "the import could not be queued; upload the file again");
      await removeParts(importId, file.parts);
      throw APIError.unavailable("the import could not be queued; please retry", err as Error);
    }
    sendJson(res, 202, publicJob((await jobById(importId))!));
  },
);

/**
 * Before a refusal is answered: the rest of the body is read and dropped, up to as much again
 * as an import may be, so that a client still sending the file reads the answer; a body
 * longer than that has its connection closed after the answer.
 */
async function refuseRest(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const whole = await discardRest(req, transfersConfig.importMaxBytes).catch(() => false);
  if (!whole) res.setHeader("connection", "close");
}
