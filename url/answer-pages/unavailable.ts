import { unavailableMessage, type DisabledReason, type LinkStatus } from "../../link-rules/status";
import { defaultHome, escapeHtml, page, type Home } from "./pages";

/** A prepared answer of a link that does not redirect: 404 with its message, as JSON and as a page. */
export interface Unavailable {
  readonly message: string;
  readonly body: string;
  readonly bodyBytes: number;
  /** The page for a browser, linking to this instance's home. */
  readonly page: string;
  readonly pageBytes: number;
  /** The page's heading and what it says, for a page linking elsewhere (unavailablePage). */
  readonly title: string;
  readonly sentences: readonly string[];
}

/**
 * The JSON answer is built at once; the page when first asked for, since it links to
 * PUBLIC_BASE_URL, which is read on first use rather than at import. Either way once.
 */
class Prepared implements Unavailable {
  readonly body: string;
  readonly bodyBytes: number;
  #page: string | undefined;
  #pageBytes = 0;

  constructor(
    readonly message: string,
    readonly title: string,
    readonly sentences: readonly string[],
  ) {
    this.body = JSON.stringify({ code: "not_found", message, details: null });
    this.bodyBytes = Buffer.byteLength(this.body);
  }

  get page(): string {
    if (this.#page === undefined) {
      this.#page = unavailablePage(this, defaultHome());
      this.#pageBytes = Buffer.byteLength(this.#page);
    }
    return this.#page;
  }

  get pageBytes(): number {
    void this.page; // built, with its size, on first use
    return this.#pageBytes;
  }
}

/** `answer`'s page with a link to `home` (a custom domain's own page, say). */
export function unavailablePage(answer: Unavailable, home: Home): string {
  const [what, ...more] = answer.sentences;
  return page(answer.title, `<p>${escapeHtml(what!)}</p>${more.map((s) => `<p class="why">${escapeHtml(s)}</p>`).join("")}`, home);
}

function prepared(message: string, title: string, ...sentences: string[]): Unavailable {
  return new Prepared(message, title, sentences);
}

const notRedirecting = "The address is right, but the link does not lead anywhere any more.";

// Built once: a link that stopped redirecting answers with one of these, allocating nothing.
const answers = {
  scheduled: prepared(unavailableMessage("scheduled"), "This link is not active yet", "Its owner set it to start working later.", "Try again later."),
  expired: prepared(unavailableMessage("expired"), "This link has expired", "Its owner set it to stop working after a certain date.", notRedirecting),
  exhausted: prepared(
    unavailableMessage("exhausted"),
    "This link has been used up",
    "Its owner let it be opened a certain number of times, and it has been.",
    notRedirecting,
  ),
  deleted: prepared(unavailableMessage("deleted"), "This link was deleted", "Its owner deleted it.", notRedirecting),
  disabledForAbuse: prepared(
    unavailableMessage("disabled", "abuse"),
    "This link was disabled",
    "It was disabled for abuse: it led to a page that broke this service's rules.",
  ),
  disabled: prepared(unavailableMessage("disabled", "account"), "This link was disabled", "The account it belongs to was disabled."),
};

/** A link whose click budget is spent. */
export const exhaustedAnswer = answers.exhausted;

/** No link has the code (or the path is no code at all). */
export const notFound = prepared(
  "url not found",
  "Link not found",
  "There is no link at this address.",
  "Check that it was typed or copied in full, letter for letter.",
);

/** The prepared 404 of a link in `status` (for disabled, `reason` says which message). */
export function unavailableAnswer(status: Exclude<LinkStatus, "active">, reason: DisabledReason | null = null): Unavailable {
  if (status !== "disabled") return answers[status];
  return unavailableMessage(status, reason) === answers.disabled.message ? answers.disabled : answers.disabledForAbuse;
}
