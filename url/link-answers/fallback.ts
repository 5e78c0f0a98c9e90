import type { IncomingMessage, ServerResponse } from "node:http";
import type { CachedLink, LinkRules } from "../link-cache/cache";
import { exhaustedAnswer, unavailableAnswer, type Unavailable } from "../answer-pages/unavailable";
import { sendLink, sendUnavailable } from "./http";

const expired = unavailableAnswer("expired");

/**
 * A link that does not redirect now (`answer`, from guarded.ts unavailableNow or a spent
 * budget): one that ended (expired or out of clicks) and has a fallback URL sends the
 * visitor there with `redirect` (its own redirect type, or the form's 303), counting no
 * click and recording nothing; any other answers its 404. A deleted, disabled or not yet
 * started link never falls back: the owner did not choose its end.
 */
export function sendEnded(
  req: IncomingMessage,
  res: ServerResponse,
  rules: LinkRules,
  answer: Unavailable,
  redirect: (req: IncomingMessage, res: ServerResponse, link: CachedLink) => void = sendLink,
): void {
  if (rules.fallback !== null && (answer === expired || answer === exhaustedAnswer)) return redirect(req, res, rules.fallback);
  sendUnavailable(req, res, answer);
}
