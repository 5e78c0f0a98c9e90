import { appMeta } from "encore.dev";
import { APIError } from "encore.dev/api";
import { linkLimits, type LinkCreator } from "../../limits/links";
import { passwords } from "../../passwords/passwords";
import { linksConfig } from "../links-config";
import type { LinkDetails } from "../outbox/url-store";
import { qrObjectName } from "../../link-rules/qr-images";
import { qrCodes } from "../qr-codes";
import { storeUnderAlias } from "../shortening/alias-code";
import { generateCode } from "../../link-rules/codes";
import { storeUnderFreshCode } from "../shortening/fresh-code";
import { checkTarget } from "../shortening/target";
import { checkAlias, checkDescription, checkExpiresAt, checkMaxClicks, checkPassword, checkTitle, type RedirectType } from "./options";
import { checkRedirectOptions } from "./redirect-options";
import { linkUrls, refuseBannedHosts } from "../moderation/host-check";
import { checkTagNames, tagKey } from "../tagging/names";
import { ensureTags } from "../tagging/tag-rows";
import { checkRedirectRules } from "./redirect-rules";
import type { RedirectRuleInput } from "../../link-rules/redirect-rules";
import { changedPreview, checkPreview, noPreview, previewOutput, type LinkPreview, type PreviewFetch } from "../previews/preview-fields";
import { fillPreview } from "../previews/fetch-preview";
import { verifiedDomainFor } from "./link-domain";
import { shortUrlOf } from "../../link-rules/short-url";

/** A link to create: POST /shorten's body, and each item of POST /links/bulk. */
export interface ShortenItem {
  /** The long URL: absolute http or https, at most 2048 characters. */
  url: string;
  /**
   * A code of your choosing instead of a random one (signed-in users only): 3 to 64 letters,
   * digits, "-" and "_", not a path of the service's own. Unique regardless of case: 409
   * already_exists when taken.
   */
  alias?: string;
  /** From this instant on the link answers 404 "link expired". In the future. */
  expiresAt?: Date;
  /** After this many clicks (1 to 1,000,000,000) the link answers 404. Counted exactly. */
  maxClicks?: number;
  /** The link redirects only once given this password (1 to 128 characters); stored hashed. */
  password?: string;
  /** For the owner's list of links: at most 200 characters. */
  title?: string;
  /** For the owner's list of links: at most 1000 characters. */
  description?: string;
  /**
   * Names of its workspace's tags (signed-in only): at most 20, each 1 to 50 characters; a
   * name the workspace has no tag by, in any case, becomes a new tag.
   */
  tags?: string[];
  /** The status of a browser's redirect: 301 or 308 (permanent), 302 (the default) or 307. API clients get `{"url"}` whatever it is. */
  redirectType?: RedirectType;
  /** Whether the short link's query string is added to the target's (its own parameters win); true by default. */
  forwardQuery?: boolean;
  /** Before this instant the link answers 404 "link not active yet"; before expiresAt when both are set. */
  startsAt?: Date;
  /** Where the link sends visitors once expired or out of clicks, instead of its 404 (those clicks are not counted): http(s), checked as `url` is. */
  fallbackUrl?: string;
  /** Whether search engines may index the link; false by default: every answer carries X-Robots-Tag: noindex. */
  allowIndexing?: boolean;
  /** Targeting rules, at most 20: the first that matches a click sends it to its url instead (docs/app.md). */
  rules?: RedirectRuleInput[];
  /** What the link shows where it is shared (GET /:code's card for link-preview bots). */
  preview?: LinkPreview;
  /**
   * Fill the preview's fields left empty from the target page's og:, twitter: and
   * description meta tags and <title>. A page that cannot be fetched fails nothing: the link
   * is stored, and `previewFetch` says why.
   */
  fetchPreview?: boolean;
  /**
   * A verified custom domain of the link's workspace (its host): the link answers there
   * only, and its shortUrl is https://<domain>/<code>. 400 when the workspace has no
   * verified domain by that name.
   */
  domain?: string;
}

export interface ShortenResponse {
  /** The short code: 6 random characters, or the alias. */
  code: string;
  /** The absolute short link: the service's public address and the code, or https://<domain>/<code> on a custom domain. */
  shortUrl: string;
  /** Public URL of the PNG QR image of `shortUrl`; only when the QR-code extension is on (QR_CODES=on). */
  qrCodeUrl?: string;
  /** The link's preview, when it has one. */
  preview?: LinkPreview;
  /** Only when fetchPreview was asked: whether the page filled the preview, or why not. */
  previewFetch?: PreviewFetch;
}

/** An item checked: what is stored, the password still in clear. */
interface CheckedItem {
  readonly target: string;
  readonly alias: string | null;
  readonly password: string | null;
  readonly details: Omit<LinkDetails, "passwordHash" | "tagIds">;
  /** Checked tag names, each once. */
  readonly tags: readonly string[];
}

/** Every check of an item, before anything is counted or stored; throws the APIError of the first that fails. */
export function checkItem(item: ShortenItem, creator: LinkCreator, baseUrl: string, workspaceId: string | null = creator.userID ?? null): CheckedItem {
  if (item.alias !== undefined && creator.userID === undefined) throw APIError.unauthenticated("sign in to choose an alias");
  if (item.tags !== undefined && workspaceId === null) throw APIError.unauthenticated("sign in to tag links");
  const target = checkTarget(item.url, baseUrl, linkLimits.config.deniedHosts);
  return {
    target,
    alias: item.alias === undefined ? null : checkAlias(item.alias),
    password: item.password === undefined ? null : checkPassword(item.password),
    tags: item.tags === undefined ? [] : checkTagNames(item.tags),
    details: {
      createdBy: creator.userID ?? null,
      workspaceId,
      title: item.title === undefined ? null : checkTitle(item.title),
      description: item.description === undefined ? null : checkDescription(item.description),
      expiresAt: item.expiresAt === undefined ? null : checkExpiresAt(item.expiresAt),
      maxClicks: item.maxClicks === undefined ? null : checkMaxClicks(item.maxClicks),
      ...checkRedirectOptions(item, baseUrl),
      redirectRules: item.rules == null ? null : checkRedirectRules(item.rules, baseUrl, linkLimits.config.deniedHosts),
      preview: item.preview === undefined || item.preview === null ? noPreview : changedPreview(noPreview, checkPreview(item.preview)),
    },
  };
}

/** The ids of a workspace's tags by name (in any case), made when missing: tagging/tag-rows.ts ensureTags. */
export type TagResolver = (workspaceId: string, names: readonly string[]) => Promise<number[]>;

const resolveTags: TagResolver = async (workspaceId, names) => {
  const ids = await ensureTags(workspaceId, names);
  return names.map((name) => ids.get(tagKey(name))!);
};

/**
 * Creates one link: checks it (a host an administrator banned too), counts it against the creator's link limits (limits/links.ts;
 * a refused item costs no budget, a stored one always does), hashes its password with
 * `hashPassword` and stores it under its alias or a fresh random code, in `workspaceId`
 * (workspace-access.ts decides which; by default the creator's personal one), with its
 * tags (`tagIdsOf` finds or makes them).
 */
export async function createLink(
  item: ShortenItem,
  creator: LinkCreator,
  hashPassword: (password: string) => Promise<string> = passwords.hash,
  workspaceId: string | null = creator.userID ?? null,
  tagIdsOf: TagResolver = resolveTags,
): Promise<ShortenResponse> {
  const baseUrl = appMeta().apiBaseUrl;
  const checked = checkItem(item, creator, baseUrl, workspaceId);
  await refuseBannedHosts(linkUrls(checked.target, checked.details.fallbackUrl, checked.details.redirectRules));
  const domain = item.domain === undefined ? null : await verifiedDomainFor(workspaceId, item.domain);
  await linkLimits.count(creator);
  const tagIds = checked.tags.length === 0 || workspaceId === null ? [] : await tagIdsOf(workspaceId, checked.tags);
  // After the limits: a fetch costs the server more than the link does.
  const filled = item.fetchPreview === true ? await fillPreview(checked.target, checked.details.preview) : undefined;
  const details: LinkDetails = {
    ...checked.details,
    preview: filled?.preview ?? checked.details.preview,
    passwordHash: checked.password === null ? null : await hashPassword(checked.password),
    tagIds,
    domain,
  };
  const code =
    checked.alias === null
      ? await storeUnderFreshCode(checked.target, generateCode, details)
      : await storeUnderAlias(checked.alias, checked.target, details);
  const answer: ShortenResponse = { code, shortUrl: shortUrlOf(code, domain, baseUrl) };
  if (linksConfig.qrCodes) answer.qrCodeUrl = qrCodes.publicUrl(qrObjectName(code));
  const preview = previewOutput(details.preview);
  if (preview !== undefined) answer.preview = preview;
  if (filled !== undefined) answer.previewFetch = filled.fetch;
  return answer;
}
