import { parse as parseCookieHeader } from "cookie";

// Whether a request carries any of the auth handler's parameters. Asked of every request
// of an app with an auth handler, the short-link redirect included, so these read Node's
// untouched request (rawHeaders, url) and allocate nothing: reading req.headers would make
// Node build the whole header object.

/** True when one of `names` (lower-case) is among the request's header names. */
export function carriesHeader(rawHeaders: readonly string[], names: readonly string[]): boolean {
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const given = rawHeaders[i]!;
    for (let j = 0; j < names.length; j++) {
      const wanted = names[j]!;
      if (given.length === wanted.length && equalsLowerCase(given, wanted)) return true;
    }
  }
  return false;
}

/** True when one of `names` is a key of the URL's query string. */
export function carriesQueryParam(url: string, names: readonly string[]): boolean {
  let start = url.indexOf("?") + 1;
  if (start === 0) return false;
  while (start <= url.length) {
    let end = url.indexOf("&", start);
    if (end === -1) end = url.length;
    let keyEnd = url.indexOf("=", start);
    if (keyEnd === -1 || keyEnd > end) keyEnd = end;
    if (keyEnd > start && isQueryKey(url, start, keyEnd, names)) return true;
    start = end + 1;
  }
  return false;
}

function isQueryKey(url: string, start: number, end: number, names: readonly string[]): boolean {
  const length = end - start;
  for (let j = 0; j < names.length; j++) {
    const name = names[j]!;
    if (name.length === length && url.startsWith(name, start)) return true;
  }
  // An encoded key ("access%5Ftoken", "a+b") is decoded first, as the query parser will.
  for (let i = start; i < end; i++) {
    const c = url.charCodeAt(i);
    if (c === 37 /* % */ || c === 43 /* + */) return names.includes(decodeKey(url.slice(start, end)));
  }
  return false;
}

function decodeKey(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    return raw;
  }
}

function equalsLowerCase(given: string, lower: string): boolean {
  for (let i = 0; i < lower.length; i++) {
    let c = given.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32; // A-Z
    if (c !== lower.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * True when one of `names` is a cookie with a non-empty value in the request's Cookie
 * header(s), as Encore counts a cookie auth parameter present. Only apps whose auth handler
 * reads a cookie ask this.
 */
export function carriesCookie(rawHeaders: readonly string[], names: readonly string[]): boolean {
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const given = rawHeaders[i]!;
    if (given.length !== 6 || !equalsLowerCase(given, "cookie")) continue;
    const jar = parseCookieHeader(rawHeaders[i + 1]!, { decode: (value) => value });
    if (names.some((name) => (jar[name] ?? "") !== "")) return true;
  }
  return false;
}
