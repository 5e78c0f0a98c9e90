import { appMeta } from "encore.dev";
import { shortUrlOf } from "../../link-rules/short-url";
import { linksConfig } from "../links-config";
import { qrObjectName } from "../../link-rules/qr-images";
import { qrCodes } from "../qr-codes";
import { linkStatus, type LinkStatus } from "../../link-rules/status";
import { storedRules, type RedirectRule } from "../../link-rules/redirect-rules";
import { previewOutput, type LinkPreview } from "../previews/preview-fields";

/** A link as its owner sees it (GET /links, GET and PATCH /links/:code). */
export interface Link {
  code: string;
  /** The absolute short link: the service's public address and the code, or on its custom domain https://<domain>/<code>. */
  shortUrl: string;
  /** The custom domain it answers on (only there); absent: the service's own address. */
  domain?: string;
  originalUrl: string;
  title?: string;
  description?: string;
  /** Stored clicks plus those this instance has answered but not yet written. */
  clicks: number;
  createdAt: Date;
  /** The owner's last change, when there was one. */
  updatedAt?: Date;
  /** After this instant the link answers as expired. */
  expiresAt?: Date;
  /** After this many clicks the link answers as exhausted. */
  maxClicks?: number;
  /** Whether following the link needs a password (the password itself is never answered). */
  hasPassword: boolean;
  status: LinkStatus;
  /** Public URL of the PNG QR image of `shortUrl`; only with QR codes on (QR_CODES=on), and not once deleted. */
  qrCodeUrl?: string;
  /** Names of its workspace's tags it has, by name in any case. */
  tags: string[];
  /** The status of a browser's redirect (API clients get `{"url"}`). */
  redirectType: number;
  /** Whether the short link's query string is added to the target. */
  forwardQuery: boolean;
  /** Before this instant the link answers 404 "link not active yet" (status scheduled). */
  startsAt?: Date;
  /** Where the link sends visitors once expired or out of clicks. */
  fallbackUrl?: string;
  /** Whether search engines may index it (without: X-Robots-Tag: noindex). */
  allowIndexing: boolean;
  /** Its targeting rules in order ([] when none): the first that matches a click sends it to the rule's url. */
  rules: RedirectRule[];
  /** What GET /:code's card shows link-preview bots; when it has one. */
  preview?: LinkPreview;
}

/**
 * The columns a Link is made from, for raw queries of `urls` named `table` (its alias in
 * the query): every read of a link names the same ones, so a column added to Link is added
 * once. The password hash never leaves SQL. The tags' subquery needs the table's name, hence
 * the parameter.
 */
export function linkColumnsOf(table: string): string {
  return `${table}.id, ${table}.code, ${table}.original_url, ${table}.title, ${table}.description, ${table}.clicks,
  ${table}.created_at, ${table}.updated_at, ${table}.expires_at, ${table}.max_clicks,
  ${table}.password_hash IS NOT NULL AS has_password, ${table}.deleted_at, ${table}.disabled_at, ${table}.created_by,
  ${table}.workspace_id, ${table}.redirect_type, ${table}.forward_query, ${table}.starts_at, ${table}.fallback_url, ${table}.allow_indexing,
  ${table}.redirect_rules, ${table}.domain,
  ${table}.preview_title, ${table}.preview_description, ${table}.preview_image,
  ARRAY(SELECT t.name FROM link_tags lt JOIN tags t ON t.id = lt.tag_id WHERE lt.link_id = ${table}.id ORDER BY lower(t.name), t.id) AS tags`;
}

/** linkColumnsOf, for `FROM urls`. */
export const linkColumns = linkColumnsOf("urls");

export interface LinkRow {
  id: number;
  code: string;
  original_url: string;
  title: string | null;
  description: string | null;
  /** Stored clicks only. */
  clicks: number;
  created_at: Date;
  updated_at: Date | null;
  expires_at: Date | null;
  max_clicks: number | null;
  has_password: boolean;
  deleted_at: Date | null;
  disabled_at: Date | null;
  created_by: string | null;
  workspace_id: string | null;
  /** jsonb: RedirectRule[], or null when none. */
  redirect_rules: unknown;
  domain: string | null;
  tags: string[];
  redirect_type: number;
  forward_query: boolean;
  starts_at: Date | null;
  fallback_url: string | null;
  allow_indexing: boolean;
  preview_title: string | null;
  preview_description: string | null;
  preview_image: string | null;
}

/** How a row becomes a Link where it is answered. */
export interface LinkView {
  /** The service's public address (appMeta().apiBaseUrl). */
  readonly baseUrl: string;
  /** The QR image's public URL of a code, when QR codes are on. */
  readonly qrCodeUrl?: (code: string) => string;
  /** The instant statuses are decided at, in ms. */
  readonly now: number;
}

/** This instance's view, deciding statuses at `now`. */
export function linkView(now: number = Date.now()): LinkView {
  const qrCodeUrl = linksConfig.qrCodes ? (code: string) => qrCodes.publicUrl(qrObjectName(code)) : undefined;
  return { baseUrl: appMeta().apiBaseUrl, qrCodeUrl, now };
}

/** The Link of a row, with `pending` clicks (answered by this instance, not yet stored) added. */
export function toLink(row: LinkRow, clicks: number, view: LinkView): Link {
  const status = linkStatus(
    { expiresAt: row.expires_at, maxClicks: row.max_clicks, clicks, deletedAt: row.deleted_at, disabledAt: row.disabled_at, startsAt: row.starts_at },
    view.now,
  );
  const link: Link = {
    code: row.code,
    shortUrl: shortUrlOf(row.code, row.domain, view.baseUrl),
    originalUrl: row.original_url,
    clicks,
    createdAt: row.created_at,
    hasPassword: row.has_password,
    status,
    tags: row.tags,
    redirectType: row.redirect_type,
    forwardQuery: row.forward_query,
    allowIndexing: row.allow_indexing,
    rules: storedRules(row.redirect_rules),
  };
  if (row.domain !== null) link.domain = row.domain;
  if (row.title !== null) link.title = row.title;
  if (row.description !== null) link.description = row.description;
  if (row.updated_at !== null) link.updatedAt = row.updated_at;
  if (row.expires_at !== null) link.expiresAt = row.expires_at;
  if (row.max_clicks !== null) link.maxClicks = row.max_clicks;
  if (row.starts_at !== null) link.startsAt = row.starts_at;
  if (row.fallback_url !== null) link.fallbackUrl = row.fallback_url;
  const preview = previewOutput({ title: row.preview_title, description: row.preview_description, image: row.preview_image });
  if (preview !== undefined) link.preview = preview;
  // A deleted link's image is gone from the bucket (DELETE /links/:code removes it).
  if (view.qrCodeUrl && status !== "deleted") link.qrCodeUrl = view.qrCodeUrl(row.code);
  return link;
}
