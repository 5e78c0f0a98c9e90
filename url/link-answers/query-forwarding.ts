/**
 * The target with the short link's query string added: `/code?utm=x` to
 * `https://shop.example/p?id=1#top` gives `https://shop.example/p?id=1&utm=x#top`. A
 * parameter the target has already keeps the target's value (the link's owner chose it; a
 * visitor must not override it), every other one is added as it was sent, in its order; the
 * target's fragment stays at the end. `query` is what follows "?" in the request (a "#"
 * and what follows it, which no browser sends, is dropped). The target as it is when
 * nothing is left to add.
 */
export function withQuery(target: string, query: string): string {
  const hash = query.indexOf("#");
  if (hash !== -1) query = query.slice(0, hash);
  if (query === "") return target;
  const fragmentAt = target.indexOf("#");
  const base = fragmentAt === -1 ? target : target.slice(0, fragmentAt);
  const fragment = fragmentAt === -1 ? "" : target.slice(fragmentAt);
  const queryAt = base.indexOf("?");
  const own = queryAt === -1 ? "" : base.slice(queryAt + 1);
  const taken = own === "" ? undefined : new Set(new URLSearchParams(own).keys());
  const added: string[] = [];
  for (const pair of query.split("&")) {
    if (pair === "") continue;
    if (taken !== undefined && taken.has(nameOf(pair))) continue;
    added.push(unprintable.test(pair) ? pair.replace(unprintableAll, percentEncoded) : pair);
  }
  if (added.length === 0) return target;
  const path = queryAt === -1 ? base : base.slice(0, queryAt);
  const joined = own === "" ? added.join("&") : `${own}&${added.join("&")}`;
  return `${path}?${joined}${fragment}`;
}

// Node hands the request line's bytes over as latin1: one character a byte. Those beyond
// printable ASCII go on percent-encoded, as the byte they were, so the Location header and the
// JSON answer carry exactly what a browser would have sent encoded.
const unprintable = /[^\x21-\x7e]/;
const unprintableAll = /[^\x21-\x7e]/g;
const percentEncoded = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;

/** A pair's name decoded as URLSearchParams decodes it ("+" a space, %XX its byte), so `a%62=1` clashes with the target's `ab`. */
function nameOf(pair: string): string {
  const eq = pair.indexOf("=");
  return new URLSearchParams(`${eq === -1 ? pair : pair.slice(0, eq)}=`).keys().next().value ?? "";
}
