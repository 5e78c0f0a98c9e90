// Click keys: a code, then a tab and the click's details when it has any. The click counter
// counts clicks per key (batches.ts); the analytics rows are made from them.

/** The key clicks of `code` with `details` are counted under. */
export function clickKey(code: string, details: string | undefined): string {
  return details === undefined ? code : `${code}\t${details}`;
}

/**
 * The key of `code` with `details`, as the same string each time while it is in use:
 * a Map hashes a string once, so counting a click under a key it already holds costs
 * no pass over the key's 60-odd characters. Keys are kept per details and code, up to
 * `internedKeys`, then forgotten all at once (they are only a saving).
 */
export function internedClickKey(code: string, details: string): string {
  let byCode = interned.get(details);
  if (byCode === undefined) interned.set(details, (byCode = new Map()));
  let key = byCode.get(code);
  if (key === undefined) {
    if (internedCount >= internedKeys) {
      interned.clear();
      internedCount = 0;
      interned.set(details, byCode);
      byCode.clear();
    }
    byCode.set(code, (key = clickKey(code, details)));
    internedCount++;
  }
  return key;
}

const internedKeys = 100_000;
const interned = new Map<string, Map<string, string>>();
let internedCount = 0;

/** The code a click key counts clicks of. */
export function codeOfKey(key: string): string {
  const tab = key.indexOf("\t");
  return tab < 0 ? key : key.slice(0, tab);
}

/** The details part of a click key; undefined for a bare code. */
export function detailsOfKey(key: string): string | undefined {
  const tab = key.indexOf("\t");
  return tab < 0 ? undefined : key.slice(tab + 1);
}
