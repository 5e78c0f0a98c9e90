import { createHash } from "node:crypto";
import { appMeta } from "encore.dev";

// The small pages GET /:code and POST /:code show a browser: a code with no link, a link that
// no longer redirects, a password link's form and its wait page. Plain HTML and one inline
// style, no script. The style is the web front end's (frontend/src/styles.css): its colours,
// light and dark by the visitor's setting, its fonts; one narrow column that fits a phone.

export const pageStyle =
  ":root{color-scheme:light dark;--bg:#fbfbfa;--fg:#1c1c1e;--muted:#5d5d63;--line:#d8d8dc;--accent:#1f5fbf;--accent-fg:#fff;--error:#b3261e;--focus:#f2a900;" +
  'font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}' +
  "@media (prefers-color-scheme:dark){:root{--bg:#161618;--fg:#ececee;--muted:#a5a5ad;--line:#3a3a40;--accent:#7fb0ff;--accent-fg:#0b1b33;--error:#ff8a80}}" +
  "body{margin:0}main{max-width:30rem;margin:12vh auto 2rem;padding:0 1.25rem}" +
  "h1{font-size:1.6rem;line-height:1.25;margin:0 0 .75rem}p{margin:0 0 1rem}a{color:var(--accent)}" +
  ":focus-visible{outline:3px solid var(--focus);outline-offset:2px}" +
  ".why{color:var(--muted)}.error{color:var(--error);font-weight:600}" +
  "label{display:block;font-weight:600;margin-bottom:.25rem}" +
  "input{font:inherit;width:100%;box-sizing:border-box;padding:.5rem .6rem;border:1px solid var(--muted);border-radius:6px;background:transparent;color:inherit}" +
  "button{font:inherit;padding:.5rem 1rem;border:1px solid var(--accent);border-radius:6px;background:var(--accent);color:var(--accent-fg);cursor:pointer}" +
  "code{background:#8882;padding:0 .25em;border-radius:3px}.home{margin-top:2rem;padding-top:1rem;border-top:1px solid var(--line);font-size:.875rem}";

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
  "content-security-policy": `default-src 'none'; style-src 'sha256-${createHash("sha256").update(pageStyle).digest("base64")}'; img-src data:; form-action 'self' https: http:; base-uri 'none'; frame-ancestors 'none'`,
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "cache-control": "private, no-store",
});

const htmlEscapes: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => htmlEscapes[c]!);
}

/** Where a page's link home leads, and what it says. */
export interface Home {
  readonly url: string;
  readonly label: string;
}

let instanceHome: Home | undefined;

/**
 * This instance's home: PUBLIC_BASE_URL, where the web front end is. Read on first use, not
 * at import (a page is built once, when first needed). A custom domain passes its own Home.
 */
export function defaultHome(): Home {
  instanceHome ??= Object.freeze({ url: `${appMeta().apiBaseUrl}/`, label: `Go to ${new URL(appMeta().apiBaseUrl).host}` });
  return instanceHome;
}

/** A whole page: `title` as its heading, `body` (HTML, already escaped) below it, then the link home. */
export function page(title: string, body: string, home: Home = defaultHome()): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="robots" content="noindex"><link rel="icon" href="data:,"><title>${escapeHtml(title)}</title><style>${pageStyle}</style></head>` +
    `<body><main><h1>${escapeHtml(title)}</h1>${body}` +
    `<p class="home"><a href="${escapeHtml(home.url)}">${escapeHtml(home.label)}</a></p></main></body></html>`
  );
}

/**
 * The form of a password link. It has no action: it posts to the address it was shown
 * at, the short link itself (POST /:code), whatever prefix a proxy put before it.
 */
export function passwordPage(error: string | null, home?: Home): string {
  const said = error === null ? "" : `<p class="error" role="alert">${escapeHtml(error)}</p>`;
  return page(
    "This link needs a password",
    `<p class="why">Its owner protected it with a password. Enter it to go on to the page it leads to.</p>${said}` +
      `<form method="post"><p><label for="password">Password</label><input id="password" type="password" name="password" required maxlength="128" autocomplete="off" autofocus></p>` +
      `<p><button type="submit">Open the link</button></p></form>`,
    home,
  );
}

/** Why a password attempt must wait: too many wrong ones from here, or too many being checked on the server. */
export type WaitReason = "guesses" | "busy";

const waitSaid: Readonly<Record<WaitReason, string>> = {
  guesses: "Too many wrong passwords were tried for this link from your network.",
  busy: "The server is checking too many passwords right now.",
};

/**
 * The page of a refused password attempt that may be tried again later, and when. Its
 * "Try again" link is the short link itself (an empty href: this page's address), whose
 * GET shows the form.
 */
export function waitPage(reason: WaitReason, retryAfterSeconds: number | undefined, home?: Home): string {
  const when =
    retryAfterSeconds === undefined
      ? "Try again in a little while."
      : `Try again in ${retryAfterSeconds < 120 ? plural(retryAfterSeconds, "second") : plural(Math.ceil(retryAfterSeconds / 60), "minute")}.`;
  return page("Please wait", `<p>${escapeHtml(waitSaid[reason])}</p><p class="why">${escapeHtml(when)}</p><p><a href="">Try again</a></p>`, home);
}

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}
