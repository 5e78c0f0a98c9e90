import { APIError, ErrCode } from "encore.dev/api";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Unavailable } from "../answer-pages/unavailable";
import { linkOf } from "../link-cache/lookup";
import { isOnItsHost } from "./on-host";
import { isWellFormedCode } from "../../link-rules/codes";
import { countClick, passwordIsRight, sendNeedsPassword, unavailableNow } from "./guarded";
import { maxFormBytes, readForm } from "./form";
import { codeOf, prefersHtml, sendPage, sendSeeOther, sendUnavailable } from "./http";
import { sendEnded } from "./fallback";
import { waitPage, type WaitReason } from "../answer-pages/pages";
import { exhaustedAnswer, notFound } from "../answer-pages/unavailable";
import { matchingRule } from "./targeting";
import { urlConfig } from "../config/url-config";

/**
 * POST /:code with the password form (`password=...`) of a password link's page: right,
 * the click is counted and the answer is a 303 to the target; wrong or missing, 401 and
 * the form again. A link past its end or budget with a fallback URL is sent there (303,
 * no click counted). A link without a password just redirects (its password was removed
 * while the form was open). Whatever fails is said on a page to a browser, as JSON to
 * anyone else. The link is looked up before the body is read: a POST to a path that is
 * no link is 404 as before, its body unread.
 */
export async function answerPasswordForm(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const code = codeOf(req.url ?? "/");
  const link = isWellFormedCode(code) ? await linkOf(code) : undefined;
  if (link === undefined || !(await isOnItsHost(req, link))) return sendUnread(req, res, notFound);
  const rules = link.rules;
  const unavailable = rules === undefined ? undefined : unavailableNow(rules);
  if (unavailable !== undefined) {
    res.setHeader("connection", "close"); // the body is not read
    return sendEnded(req, res, rules!, unavailable, sendSeeOther);
  }
  if (rules !== undefined && rules.passwordHash !== null) {
    const form = await readForm(req);
    if ("refused" in form) {
      return form.refused === "too large"
        ? refuse(res, 413, "resource_exhausted", `the form must be at most ${maxFormBytes} bytes`)
        : refuse(res, 400, "invalid_argument", "send the password as a form (application/x-www-form-urlencoded)");
    }
    const password = form.fields.get("password");
    if (!password) return sendNeedsPassword(req, res, null);
    let right: boolean;
    try {
      right = await passwordIsRight(req, code, rules.passwordHash, password);
    } catch (err) {
      if (err instanceof APIError && waitCodes.has(err.code) && prefersHtml(req)) return sendWaitPage(req, res, err);
      throw err;
    }
    if (!right) return sendNeedsPassword(req, res, "wrong");
  } else {
    res.setHeader("connection", "close"); // no password to read
  }
  const rule = rules?.targeting ? matchingRule(req, rules.targeting, urlConfig.trustProxy) : undefined;
  if (!(await countClick(req, code, rules, rule?.id))) return sendEnded(req, res, rules!, exhaustedAnswer, sendSeeOther);
  sendSeeOther(req, res, rule?.link ?? link);
}

/** A 404 before the body was read: the connection closes rather than read a body nobody needs. */
function sendUnread(req: IncomingMessage, res: ServerResponse, answer: Unavailable): void {
  res.setHeader("connection", "close");
  sendUnavailable(req, res, answer);
}

/** A body refused unread or part read: the connection closes rather than wait for the rest. */
function refuse(res: ServerResponse, status: number, code: string, message: string): void {
  const body = JSON.stringify({ code, message, details: null });
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body), connection: "close" });
  res.end(body);
}

/** The refusals that ask to try again later, with their statuses and why. */
const waitCodes: ReadonlyMap<ErrCode, readonly [number, WaitReason]> = new Map([
  [ErrCode.ResourceExhausted, [429, "guesses"]], // too many wrong passwords
  [ErrCode.Unavailable, [503, "busy"]], // too many passwords being checked on this server
]);

/** A refusal of waitCodes as a page, with Retry-After. */
function sendWaitPage(req: IncomingMessage, res: ServerResponse, err: APIError): void {
  const [status, reason] = waitCodes.get(err.code)!;
  const retryAfter = (err.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
  sendPage(req, res, status, waitPage(reason, retryAfter), undefined, retryAfter === undefined ? undefined : { "retry-after": String(retryAfter) });
}
