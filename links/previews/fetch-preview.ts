import { appMeta } from "encore.dev";
import log from "encore.dev/log";
import pLimit from "p-limit";
import { fetchPage, FetchFailed } from "../../outbound/fetch-page";
import { TargetRefused } from "../../outbound/target";
import { pageMeta } from "./page-meta";
import { previewConfig } from "./preview-config";
import { imageUrl, maxPreviewDescriptionLength, maxPreviewTitleLength, type PreviewFetch, type StoredPreview } from "./preview-fields";

/**
 * Fetches at once in this instance, at most: a bulk request of 1,000 links asking for
 * previews waits its turn rather than opening 1,000 connections.
 */
const fetches = pLimit(8);

/**
 * `preview` with its empty fields filled from `target`'s page (its og:, twitter: and
 * description meta tags and <title>, page-meta.ts), fetched by outbound/fetch-page.ts under
 * the PREVIEW_* settings. A failure is no error: the fields stay as they were, and the
 * answer says why (the link is stored all the same).
 */
export async function fillPreview(target: string, preview: StoredPreview): Promise<{ preview: StoredPreview; fetch: PreviewFetch }> {
  if (preview.title !== null && preview.description !== null && preview.image !== null) return { preview, fetch: { ok: true } };
  const baseUrl = appMeta().apiBaseUrl;
  let page;
  try {
    page = await fetches(() =>
      fetchPage(target, { ownBaseUrl: baseUrl, allowPrivate: previewConfig.allowPrivateTargets }, previewConfig, `url-shortener-preview/1 (+${baseUrl})`),
    );
  } catch (err) {
    if (err instanceof TargetRefused || err instanceof FetchFailed) return { preview, fetch: { ok: false, reason: err.message } };
    log.error(err, "fetching a preview failed unexpectedly", { target });
    return { preview, fetch: { ok: false, reason: "the page could not be fetched" } };
  }
  const meta = pageMeta(page.html);
  return {
    preview: {
      title: preview.title ?? cut(meta.title, maxPreviewTitleLength),
      description: preview.description ?? cut(meta.description, maxPreviewDescriptionLength),
      image: preview.image ?? (meta.image === undefined ? null : imageUrl(meta.image, page.url)),
    },
    fetch: { ok: true },
  };
}

/** At most `max` characters, an ellipsis marking a cut. */
function cut(text: string | undefined, max: number): string | null {
  if (text === undefined) return null;
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
