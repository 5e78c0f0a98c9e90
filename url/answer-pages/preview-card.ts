import { escapeHtml } from "./pages";

/**
 * A link's preview (urls.preview_*), as GET /:code shows it to link-preview bots: a page of
 * Open Graph and Twitter card tags, made the first time a bot asks and kept with the cached
 * link (a change of the preview evicts the link, and the next lookup makes a new one).
 */
export class PreviewCard {
  #page: { readonly html: string; readonly bytes: number } | undefined;

  constructor(
    readonly title: string | null,
    readonly description: string | null,
    readonly image: string | null,
    /** The short link itself, the card's og:url. */
    readonly shortUrl: string,
  ) {}

  page(target: string): { readonly html: string; readonly bytes: number } {
    if (this.#page === undefined) {
      const html = cardPage(this, target);
      this.#page = { html, bytes: Buffer.byteLength(html) };
    }
    return this.#page;
  }
}

/** A row's preview, or undefined when it has none (most links: nothing to check for them). */
export function previewCardOf(title: string | null, description: string | null, image: string | null, shortUrl: string): PreviewCard | undefined {
  if (title === null && description === null && image === null) return undefined;
  return new PreviewCard(title, description, image, shortUrl);
}

/**
 * The card, served with pages.ts's headers: og: and twitter: tags, every value escaped; a refresh to the target and a link
 * to it for a client that shows the page instead of reading it. Not to be indexed: it is
 * a stand-in for the target.
 */
export function cardPage(card: PreviewCard, target: string): string {
  const title = card.title ?? new URL(target).host;
  const meta = (attribute: "property" | "name", key: string, value: string | null) =>
    value === null ? "" : `<meta ${attribute}="${key}" content="${escapeHtml(value)}">`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
    `<meta name="robots" content="noindex">` +
    meta("property", "og:type", "website") +
    meta("property", "og:url", card.shortUrl) +
    meta("property", "og:title", title) +
    meta("property", "og:description", card.description) +
    meta("name", "description", card.description) +
    meta("property", "og:image", card.image) +
    meta("name", "twitter:card", card.image === null ? "summary" : "summary_large_image") +
    meta("name", "twitter:title", title) +
    meta("name", "twitter:description", card.description) +
    meta("name", "twitter:image", card.image) +
    `<meta http-equiv="refresh" content="0;url=${escapeHtml(target)}"><link rel="icon" href="data:,"></head>` +
    `<body><p><a href="${escapeHtml(target)}">${escapeHtml(target)}</a></p></body></html>`
  );
}
