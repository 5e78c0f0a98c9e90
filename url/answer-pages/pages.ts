import { createHash } from "node:crypto";

// The small pages GET /:code and POST /:code show a browser: a link that no longer
// redirects, and a password link's form. Plain HTML and one inline style, no script.

const style =
  "body{font:16px/1.5 system-ui,sans-serif;max-width:30rem;margin:4rem auto;padding:0 1rem;color:#1f2328}" +
  "h1{font-size:1.4rem}input,button{font:inherit;padding:.4rem .6rem}p.error{color:#b42318}";

/**
 * Headers of every such page. The CSP allows nothing but the one style (by its hash) and the
 * icon "data:," (none, so no request for /favicon.ico); forms may go to this origin or to
 * any http(s) address, because browsers apply form-action to the redirect a form's answer
 * makes too, and the password form's right answer is a 303 to the link's target. No page
 * may be framed (clickjacking the form), none names this address to where it leads, a
 * page is only ever HTML, and none is kept (the link may change at any moment).
 */
export const pageHeaders: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": `default-src 'none'; style-src 'sha256-${createHash("sha256").update(style).digest("base64")}'; img-src data:; form-action 'self' https: http:; base-uri 'none'; frame-ancestors 'none'`,
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "cache-control": "private, no-store",
});

const htmlEscapes: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => htmlEscapes[c]!);
}

/** A whole page: `title` as its heading, `body` (HTML, already escaped) below it. */
export function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="robots" content="noindex"><link rel="icon" href="data:,"><title>${escapeHtml(title)}</title><style>${style}</style></head>` +
    `<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`
  );
}

/**
 * The form of a password link. It has no action: it posts to the address it was shown
 * at, the short link itself (POST /:code), whatever prefix a proxy put before it.
 */
export function passwordPage(error: string | null): string {
  const said = error === null ? "" : `<p class="error" role="alert">${escapeHtml(error)}</p>`;
  return page(
    "This link needs a password",
    `${said}<form method="post"><p><label>Password <input type="password" name="password" required maxlength="128" autocomplete="off" autofocus></label></p>` +
      `<p><button type="submit">Open the link</button></p></form>`,
  );
}
