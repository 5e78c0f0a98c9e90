import { useEffect, useState } from "preact/hooks";
import { client, errorMessage } from "../api";
import type { url } from "../client.gen";
import { Alert } from "../components/Alert";
import { formatTime } from "../format";
import { href } from "../router";

/** The signed-in user's links, newest first, a page at a time ("More" follows nextCursor). */
export function LinksPage() {
  const [links, setLinks] = useState<url.MyUrl[]>([]);
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

  const load = async (after?: string) => {
    setLoading(true);
    setError(null);
    try {
      const page = await client.url.myUrls({ cursor: after });
      setLinks((shown) => (after ? [...shown, ...page.urls] : page.urls));
      setCursor(page.nextCursor);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => void load(), []);

  return (
    <>
      <h1 tabIndex={-1}>My links</h1>
      {error && <Alert>{error}</Alert>}
      {!loading && !error && links.length === 0 && (
        <p>
          No links yet. <a href={href.shorten}>Shorten one</a>.
        </p>
      )}
      {links.length > 0 && (
        <ul class="links" aria-busy={loading}>
          {links.map((link) => (
            <li key={link.code}>
              <a href={link.shortUrl}>{link.shortUrl}</a>
              <span class="original">{link.originalUrl}</span>
              <span class="meta">
                {link.clicks} {link.clicks === 1 ? "click" : "clicks"} · <time dateTime={link.createdAt}>{formatTime(link.createdAt)}</time> ·{" "}
                <a href={href.stats(link.code)} aria-label={`Stats of ${link.code}`}>
                  stats
                </a>
              </span>
            </li>
          ))}
        </ul>
      )}
      {cursor && (
        <button type="button" onClick={() => load(cursor)} disabled={loading}>
          {loading ? "Loading…" : "More"}
        </button>
      )}
    </>
  );
}
