import type { ImportRow } from "../../link-rules/import-rows";
import { instantOf, RowError, tagsOf, textOf, wholeNumberOf } from "./records";

// Other shorteners' exports, by their documented layouts (samples in transfers/testdata/).
// Each keeps the source's code as the alias, its created date and its click total where
// it has them.

/**
 * Kutt: the JSON its API answers for the list of links (GET /api/v2/links: {limit, skip,
 * total, data: [...]}), each with address (the code), target, description, visit_count,
 * created_at, expire_in and password (whether it has one: Kutt never gives the password).
 */
export function kuttRow(f: Record<string, unknown>, line: number): ImportRow {
  if (f.password === true) throw new RowError("the link has a password in Kutt, which its export does not carry: import it from a CSV with a password column");
  return {
    line,
    url: textOf(f.target) ?? "",
    alias: textOf(f.address),
    description: textOf(f.description),
    expiresAt: instantOf(f.expire_in, "expire_in"),
    createdAt: instantOf(f.created_at, "created_at"),
    clicks: wholeNumberOf(f.visit_count, "visit_count"),
  };
}

/**
 * Shlink: the CSV its web client exports from the list of short URLs (createdAt, domain,
 * shortCode, shortUrl, longUrl, title, tags separated by "|", visits).
 */
export function shlinkRow(f: Record<string, unknown>, line: number): ImportRow {
  return {
    line,
    url: textOf(f.longurl) ?? "",
    alias: textOf(f.shortcode),
    title: textOf(f.title),
    tags: tagsOf(f.tags, "|"),
    createdAt: instantOf(f.createdat, "createdAt"),
    clicks: wholeNumberOf(f.visits, "visits"),
  };
}

/**
 * YOURLS: its links table (yourls_url) as CSV, as a database export or an export plugin
 * writes it: keyword, url, title, timestamp (the server's "YYYY-MM-DD hh:mm:ss", read as
 * UTC), ip, clicks.
 */
export function yourlsRow(f: Record<string, unknown>, line: number): ImportRow {
  return {
    line,
    url: textOf(f.url) ?? "",
    alias: textOf(f.keyword),
    title: textOf(f.title),
    createdAt: instantOf(f.timestamp, "timestamp"),
    clicks: wholeNumberOf(f.clicks, "clicks"),
  };
}

/**
 * Bitly: the JSON its API answers for a group's links (GET /v4/groups/{guid}/bitlinks:
 * {links: [...], pagination}), each with id ("bit.ly/3xYz"), link, long_url, title,
 * created_at ("2021-03-04T05:06:07+0000"), tags and custom_bitlinks. The alias is the
 * first custom back-half, else the Bitly code. Bitly's list carries no clicks.
 */
export function bitlyRow(f: Record<string, unknown>, line: number): ImportRow {
  const custom = Array.isArray(f.custom_bitlinks) ? f.custom_bitlinks.map((v) => textOf(v)).find((v) => v !== undefined) : undefined;
  const code = custom ?? textOf(f.id) ?? textOf(f.link);
  return {
    line,
    url: textOf(f.long_url) ?? "",
    alias: code === undefined ? undefined : lastSegment(code),
    title: textOf(f.title),
    tags: tagsOf(f.tags, ","),
    createdAt: instantOf(f.created_at, "created_at"),
  };
}

/** "https://bit.ly/abc" or "bit.ly/abc" → "abc". */
function lastSegment(link: string): string {
  const path = link.replace(/^[a-z]+:\/\//i, "").replace(/[?#].*$/, "");
  return path.slice(path.lastIndexOf("/") + 1);
}
