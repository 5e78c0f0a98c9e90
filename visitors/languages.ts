import Negotiator from "negotiator";

/**
 * The visitor's most preferred language in an Accept-Language header, as its primary
 * subtag in lower case ("de-CH;q=0.9, fr" → "fr" when fr ranks first): the first of the
 * acceptable languages in q order (ties keep the header's order), "*" and q=0 skipped;
 * undefined when none. Browsers send a handful of distinct headers, so answers are
 * remembered (a few thousand, then forgotten at once).
 */
export function preferredLanguage(acceptLanguage: string | undefined): string | undefined {
  if (!acceptLanguage) return undefined;
  const known = remembered.get(acceptLanguage);
  if (known !== undefined || remembered.has(acceptLanguage)) return known;
  const language = firstLanguage(acceptLanguage.length > longestRead ? acceptLanguage.slice(0, longestRead) : acceptLanguage);
  if (remembered.size >= rememberedHeaders) remembered.clear();
  remembered.set(acceptLanguage, language);
  return language;
}

/** The header is the client's to write: only its start is read. */
const longestRead = 512;
const rememberedHeaders = 5000;
const remembered = new Map<string, string | undefined>();

function firstLanguage(header: string): string | undefined {
  for (const tag of new Negotiator({ headers: { "accept-language": header } }).languages()) {
    if (tag === "*") continue;
    const dash = tag.indexOf("-");
    const primary = (dash === -1 ? tag : tag.slice(0, dash)).toLowerCase();
    if (/^[a-z]{2,8}$/.test(primary)) return primary;
  }
  return undefined;
}
