import { APIError } from "encore.dev/api";

// The rules for tag names and how many tags there may be, shared by every endpoint that
// names tags (creating and renaming them, tagging links, filtering the list by them).

export const maxTagNameLength = 50;
/** Tags one link may have. */
export const maxTagsPerLink = 20;
/** Tags one workspace may have: enough for any team's scheme, few enough to list on one page. */
export const maxTagsPerWorkspace = 500;

/**
 * A tag's name: 1 to 50 characters once trimmed, its case kept. No comma (GET /links takes
 * `tags=a,b`) and no control character (a name is shown as a chip and in menus).
 */
export function checkTagName(raw: string, field = "name"): string {
  if (typeof raw !== "string") throw APIError.invalidArgument(`${field} must be a string`);
  const name = raw.trim();
  if (name.length === 0 || name.length > maxTagNameLength) {
    throw APIError.invalidArgument(`${field} must be 1 to ${maxTagNameLength} characters once trimmed, got "${name.slice(0, 60)}"`);
  }
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[,\u0000-\u001f\u007f]/.test(name)) throw APIError.invalidArgument(`${field} may not hold a comma or a control character, got "${name}"`);
  return name;
}

/**
 * A list of tag names: each checked, the same name in another case given once (the first
 * spelling kept), at most `most` of them. `field` names the list in errors.
 */
export function checkTagNames(raw: readonly string[], field = "tags", most = maxTagsPerLink): string[] {
  if (!Array.isArray(raw)) throw APIError.invalidArgument(`${field} must be a list of tag names`);
  const byKey = new Map<string, string>();
  for (const value of raw) {
    const name = checkTagName(value, `each of ${field}`);
    if (!byKey.has(tagKey(name))) byKey.set(tagKey(name), name);
  }
  if (byKey.size > most) throw APIError.invalidArgument(`${field} may name at most ${most} tags, got ${byKey.size}`);
  return [...byKey.values()];
}

/** What makes two names one tag: the case is not part of it (PostgreSQL's lower(), as the unique index). */
export const tagKey = (name: string) => name.toLowerCase();
