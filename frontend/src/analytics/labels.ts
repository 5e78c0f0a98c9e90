// How the breakdowns' values read on the page: the API's values are machine words
// ("direct", "unknown", ISO country codes, device kinds).

const regionalIndicatorA = 0x1f1e6;

/** The flag emoji of an ISO 3166 alpha-2 code: its two letters as regional-indicator symbols; none for anything else. */
export function countryFlag(code: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return "";
  return String.fromCodePoint(...[...code].map((letter) => regionalIndicatorA + letter.charCodeAt(0) - 65));
}

let regionNames: Intl.DisplayNames | undefined;

/** "United Kingdom" for "GB" in the reader's language; the code itself where the browser has no name. */
export function countryName(code: string): string {
  try {
    regionNames ??= new Intl.DisplayNames(undefined, { type: "region" });
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

export type Dimension = "referrers" | "countries" | "browsers" | "os" | "devices";

/** A breakdown's value for people: words capitalised, "direct" explained, countries named. */
export function valueLabel(dimension: Dimension, value: string): string {
  if (value === "unknown") return "Unknown";
  if (dimension === "referrers") return value === "direct" ? "Direct (no referrer)" : value;
  if (dimension === "countries") return countryName(value);
  if (dimension === "devices") return capitalised(value);
  return value;
}
