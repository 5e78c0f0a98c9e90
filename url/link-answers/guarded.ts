import type { IncomingMessage, ServerResponse } from "node:http";
import { addBudgetedClick } from "../click-analytics/store";
import { describeClick } from "../../visitors/describe";
import { clickCounter } from "../click-counting/instance";
import { urlConfig } from "../config/url-config";
import type { Unavailable } from "../answer-pages/unavailable";
import type { CachedLink, LinkRules } from "../link-cache/cache";
import { linkPasswordIsRight } from "../../link-access/password-checks";
import { needsPasswordMessage, passwordOfHeader, wrongPasswordMessage } from "../../link-access/password-links";
import { clientAddressKey } from "../../limits/client-address";
import { prefersHtml, rawHeader, sendJson, sendLink, sendPage } from "./http";
import { sendEnded } from "./fallback";
import { passwordPage } from "../answer-pages/pages";
import { exhaustedAnswer as exhausted, unavailableAnswer } from "../answer-pages/unavailable";

// How GET /:code answers a link that is not plain (link-cache/cache.ts LinkRules): one
// that stopped redirecting, has an end date, a start, a click budget or a password.

const expired = unavailableAnswer("expired");
const scheduled = unavailableAnswer("scheduled");

/** What keeps a link from redirecting now, whatever the password: undefined when nothing does. */
export function unavailableNow(rules: LinkRules): Unavailable | undefined {
  if (rules.gone !== null) return rules.gone;
  if (rules.expiresAt !== null && Date.now() >= rules.expiresAt) return expired;
  if (rules.exhausted) return exhausted;
  if (rules.startsAt !== null && Date.now() < rules.startsAt) return scheduled;
  return undefined;
}

/** GET or HEAD of a link with `rules`: the checks, then the click and the answer (sendLink). */
export function answerGuarded(req: IncomingMessage, res: ServerResponse, code: string, link: CachedLink, rules: LinkRules): void | Promise<void> {
  const unavailable = unavailableNow(rules);
  if (unavailable !== undefined) return sendEnded(req, res, rules, unavailable);
  if (rules.passwordHash !== null) return answerLocked(req, res, code, link, rules, rules.passwordHash);
  if (req.method !== "GET") return sendLink(req, res, link); // HEAD counts nothing
  return afterClick(countClick(req, code, rules), req, res, link, rules);
}

const needsPassword = prepare(needsPasswordMessage);
const wrongPassword = prepare(wrongPasswordMessage);

function prepare(message: string): { body: string; bytes: number } {
  const body = JSON.stringify({ code: "unauthenticated", message, details: null });
  return { body, bytes: Buffer.byteLength(body) };
}

const formPage = passwordPage(null);
const wrongPasswordPage = passwordPage("Wrong password. Try again.");

/**
 * A password link: an API client sends the password in X-Link-Password; a browser gets the
 * form, which posts to POST /:code. HEAD always answers 401 and counts nothing: it must not
 * become a way to test passwords without the click.
 */
function answerLocked(req: IncomingMessage, res: ServerResponse, code: string, link: CachedLink, rules: LinkRules, hash: string): void | Promise<void> {
  const given = req.method === "GET" ? rawHeader(req, "x-link-password") : undefined;
  if (given === undefined) return sendNeedsPassword(req, res, null);
  return passwordIsRight(req, code, hash, passwordOfHeader(given)).then((right) =>
    right ? afterClick(countClick(req, code, rules), req, res, link, rules) : sendNeedsPassword(req, res, "wrong"),
  );
}

/** 401: the form (saying the last password was wrong), or for an API client the JSON error. */
export function sendNeedsPassword(req: IncomingMessage, res: ServerResponse, last: "wrong" | null): void {
  if (prefersHtml(req)) return sendPage(req, res, 401, last === null ? formPage : wrongPasswordPage);
  const { body, bytes } = last === null ? needsPassword : wrongPassword;
  sendJson(req, res, 401, body, bytes);
}

/**
 * Whether `password` is the link's (link-access/password-checks.ts). Only a wrong one
 * counts against its client address and code; past the limit it throws 429
 * resource_exhausted (with retryAfterSeconds), and 503 unavailable when too many
 * passwords are being checked on this server.
 */
export function passwordIsRight(req: IncomingMessage, code: string, hash: string, password: string): Promise<boolean> {
  return linkPasswordIsRight(clientAddressKey(req, urlConfig.trustProxy), code, hash, password);
}

/**
 * Counts the click `req` makes on a link with `rules` (undefined: plain); resolves false,
 * counting nothing, when its click budget is spent.
 */
export function countClick(req: IncomingMessage, code: string, rules: LinkRules | undefined): boolean | Promise<boolean> {
  const details = describeClick(req, urlConfig.trustProxy);
  if (rules !== undefined && rules.maxClicks !== null) {
    return addBudgetedClick(code, details).then((counted) => {
      if (!counted) rules.exhausted = true; // later requests answer from the cache (see LinkRules)
      return counted;
    });
  }
  const written = clickCounter.record(code, details);
  return written === undefined ? true : written.then(() => true);
}

/*
 * A link with a click budget counts each click in the database before answering, not in
 * the batched counter (click-counting/): that counter keeps clicks in each instance's
 * memory and writes them later, so no instance knows the others' count, and n instances
 * could let up to n times the budget through. One conditional UPDATE is atomic across
 * every instance: the click that would pass max_clicks finds no row, and is refused.
 * It costs a round trip and a row lock per click, only for these links
 * (click-analytics/store.ts addBudgetedClick, which adds the click's analytics with it).
 */

function afterClick(counted: boolean | Promise<boolean>, req: IncomingMessage, res: ServerResponse, link: CachedLink, rules: LinkRules): void | Promise<void> {
  if (counted === true) return sendLink(req, res, link);
  return Promise.resolve(counted).then((ok) => (ok ? sendLink(req, res, link) : sendEnded(req, res, rules, exhausted)));
}
