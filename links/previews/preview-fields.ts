import { APIError } from "encore.dev/api";

/** What a link shows when shared where a page's preview is drawn (GET /:code's card for preview bots). */
export interface LinkPreview {
  /** At most 200 characters. */
  title?: string;
  /** At most 1000 characters. */
  description?: string;
  /** An absolute http(s) URL of the image, at most 2048 characters. */
  image?: string;
}

/** A change of a link's preview (PATCH /links/:code): a field left out stays, null clears it. */
export interface LinkPreviewChange {
  title?: string | null;
  description?: string | null;
  image?: string | null;
}

/** Whether a fetch of the target's page (fetchPreview) filled the fields left empty, or why not. */
export interface PreviewFetch {
  ok: boolean;
  /** Why the page gave nothing: refused address, timeout, not HTML, ... */
  reason?: string;
}

/** The three columns of urls (url migration 17); null where none. */
export interface StoredPreview {
  readonly title: string | null;
  readonly description: string | null;
  readonly image: string | null;
}

export const noPreview: StoredPreview = Object.freeze({ title: null, description: null, image: null });

export const maxPreviewTitleLength = 200;
export const maxPreviewDescriptionLength = 1000;
export const maxPreviewImageLength = 2048;

/** A preview as given, checked; an empty string is no value. Throws 400 naming the field. */
export function checkPreview(preview: LinkPreview | LinkPreviewChange): LinkPreviewChange {
  return {
    title: checkText(preview.title, "preview.title", maxPreviewTitleLength),
    description: checkText(preview.description, "preview.description", maxPreviewDescriptionLength),
    image: preview.image === undefined || preview.image === null || preview.image === "" ? emptied(preview.image) : checkImage(preview.image),
  };
}

function checkText(value: string | null | undefined, field: string, max: number): string | null | undefined {
  if (value === undefined || value === null || value === "") return emptied(value);
  if (typeof value !== "string") throw APIError.invalidArgument(`${field} must be a string`);
  if (value.length > max) throw APIError.invalidArgument(`${field} must be at most ${max} characters, got ${value.length}`);
  return value;
}

/** "" clears as null does: a form's empty field. */
function emptied(value: string | null | undefined): null | undefined {
  return value === undefined ? undefined : null;
}

/** An absolute http(s) URL, normalised, at most 2048 characters; throws 400 naming preview.image. */
export function checkImage(value: string): string {
  const url = imageUrl(value);
  if (url === null) throw APIError.invalidArgument(`preview.image must be an absolute http or https URL of at most ${maxPreviewImageLength} characters`);
  return url;
}

/** `value` (resolved against `base` when given) as a normalised http(s) URL of at most 2048 characters, or null. */
export function imageUrl(value: string, base?: string): string | null {
  if (typeof value !== "string" || value.length > maxPreviewImageLength) return null;
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username !== "" || url.password !== "") return null;
  return url.href.length > maxPreviewImageLength ? null : url.href;
}

/** The stored preview after `change`, over `current`. */
export function changedPreview(current: StoredPreview, change: LinkPreviewChange | null | undefined): StoredPreview {
  if (change === undefined) return current;
  if (change === null) return noPreview;
  const pick = (now: string | null, next: string | null | undefined) => (next === undefined ? now : next);
  return { title: pick(current.title, change.title), description: pick(current.description, change.description), image: pick(current.image, change.image) };
}

/** The preview answered on a Link; undefined when it has none. */
export function previewOutput(stored: StoredPreview): LinkPreview | undefined {
  if (stored.title === null && stored.description === null && stored.image === null) return undefined;
  const preview: LinkPreview = {};
  if (stored.title !== null) preview.title = stored.title;
  if (stored.description !== null) preview.description = stored.description;
  if (stored.image !== null) preview.image = stored.image;
  return preview;
}
