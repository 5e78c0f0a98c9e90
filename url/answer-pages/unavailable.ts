import { unavailableMessage, type DisabledReason, type LinkStatus } from "../../link-rules/status";
import { escapeHtml, page } from "./pages";

/** A prepared answer of a link that no longer redirects: 404 with its message, as JSON and as a page. */
export interface Unavailable {
  readonly message: string;
  readonly body: string;
  readonly bodyBytes: number;
  readonly page: string;
  readonly pageBytes: number;
}

/** The answer with `message`; the page says it as a sentence, or as `sentence` when given. */
function prepared(message: string, sentence = `${message[0]!.toUpperCase()}${message.slice(1)}.`): Unavailable {
  const body = JSON.stringify({ code: "not_found", message, details: null });
  const html = page("This link is not available", `<p>${escapeHtml(sentence)}</p>`);
  return Object.freeze({ message, body, bodyBytes: Buffer.byteLength(body), page: html, pageBytes: Buffer.byteLength(html) });
}

// Built once: a link that stopped redirecting answers with one of these, allocating nothing.
const answers = {
  scheduled: prepared(unavailableMessage("scheduled")),
  expired: prepared(unavailableMessage("expired")),
  exhausted: prepared(unavailableMessage("exhausted")),
  deleted: prepared(unavailableMessage("deleted")),
  disabledForAbuse: prepared(unavailableMessage("disabled", "abuse")),
  disabled: prepared(unavailableMessage("disabled", "account")),
};

/** A link whose click budget is spent. */
export const exhaustedAnswer = answers.exhausted;

/** No link has the code. */
export const notFound = prepared("url not found", "There is no link at this address.");

/** The prepared 404 of a link in `status` (for disabled, `reason` says which message). */
export function unavailableAnswer(status: Exclude<LinkStatus, "active">, reason: DisabledReason | null = null): Unavailable {
  if (status !== "disabled") return answers[status];
  return unavailableMessage(status, reason) === answers.disabled.message ? answers.disabled : answers.disabledForAbuse;
}
