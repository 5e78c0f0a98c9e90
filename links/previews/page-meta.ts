import { Parser } from "htmlparser2";

/** What a page says of itself for a preview; a field it does not say is left out. */
export interface PageMeta {
  title?: string;
  description?: string;
  /** As the page wrote it: may be relative (resolved by the caller against the page's URL). */
  image?: string;
}

// Each field's sources, best first: Open Graph, then Twitter's cards, then plain HTML.
const sources: Readonly<Record<keyof PageMeta, readonly string[]>> = {
  title: ["og:title", "twitter:title", "<title>"],
  description: ["og:description", "twitter:description", "description"],
  image: ["og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src"],
};

/**
 * The og:, twitter: and description meta tags and the <title> of an HTML page, by a real
 * parser (htmlparser2: entities decoded, comments, scripts and attribute quoting as a
 * browser reads them), the first of each kind kept. Stops reading at </head>, where these
 * belong: the body may be most of the page. Whitespace runs become one space.
 */
export function pageMeta(html: string): PageMeta {
  const found = new Map<string, string>();
  let inTitle = false;
  let title = "";
  let done = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (done) return;
        if (name === "title" && !found.has("<title>")) inTitle = true;
        if (name !== "meta") return;
        const key = (attributes.property ?? attributes.name ?? "").trim().toLowerCase();
        const content = attributes.content;
        if (key !== "" && content !== undefined && content.trim() !== "" && !found.has(key)) found.set(key, content);
      },
      ontext(text) {
        if (inTitle) title += text;
      },
      onclosetag(name) {
        if (done) return;
        if (name === "title" && inTitle) {
          inTitle = false;
          found.set("<title>", title);
        }
        if (name === "head") done = true;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  // In slices, so the parse ends soon after </head> instead of reading a long body.
  for (let at = 0; at < html.length && !done; at += sliceLength) parser.write(html.slice(at, at + sliceLength));
  parser.end();
  const meta: PageMeta = {};
  for (const field of Object.keys(sources) as (keyof PageMeta)[]) {
    for (const source of sources[field]) {
      const value = found.get(source)?.replace(/\s+/g, " ").trim(); // "" (a <title> of spaces) is none
      if (value) {
        meta[field] = value;
        break;
      }
    }
  }
  return meta;
}

const sliceLength = 16 * 1024;
