import { useEffect, useState } from "preact/hooks";
import type { BucketsState, ObjectList } from "../../../internal/dashboard/api.ts";
import { api, asApiError, type ApiError } from "../api.ts";
import { Badge } from "../components/Badge.tsx";
import { ErrorBox } from "../components/ErrorBox.tsx";
import { Empty, Loading, PageHeader } from "../components/PageHeader.tsx";
import { bytes } from "../format.ts";
import { useLive } from "../live.ts";
import { href } from "../router.ts";
import { useApi } from "../use-api.ts";

/** The app's buckets, and the objects of the one chosen. */
export function BucketsPage({ selected }: { selected: string | null }) {
  const { data, error, reload } = useApi<BucketsState>("/api/buckets");
  const bucket = data?.buckets.find((b) => b.name === selected) ?? (selected === null ? data?.buckets[0] : undefined);
  return (
    <>
      <PageHeader title="Buckets">
        <button type="button" class="secondary" onClick={reload}>
          Refresh
        </button>
      </PageHeader>
      <ErrorBox error={error} />
      {!data && !error && <Loading what="buckets" />}
      {data && data.buckets.length === 0 && <Empty>The app declares no buckets.</Empty>}
      {data && data.buckets.length > 0 && (
        <section class="card">
          <table class="grid" data-testid="buckets">
            <thead>
              <tr>
                <th>Bucket</th>
                <th>Service</th>
                <th>Access</th>
              </tr>
            </thead>
            <tbody>
              {data.buckets.map((b) => (
                <tr key={b.name} class={b === bucket ? "selected" : undefined}>
                  <td class="mono">
                    <a href={href.bucket(b.name)} aria-current={b === bucket ? "page" : undefined}>
                      {b.name}
                    </a>
                  </td>
                  <td>
                    <a href={href.service(b.service)}>{b.service}</a>
                  </td>
                  <td>
                    {b.public ? <Badge tone="accent">public</Badge> : <Badge>private</Badge>} {b.versioned && <Badge tone="muted">versioned</Badge>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {data && selected !== null && !bucket && <p>The app has no bucket named “{selected}”.</p>}
      {bucket && <Objects key={bucket.name} bucket={bucket.name} />}
    </>
  );
}

/** One bucket's objects, a page at a time, filtered by prefix. */
function Objects({ bucket }: { bucket: string }) {
  const { generation } = useLive();
  const [prefix, setPrefix] = useState("");
  const [objects, setObjects] = useState<ObjectList["objects"]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<ApiError | null>(null);

  const load = async (after: string | null) => {
    setLoading(true);
    setError(null);
    const params = new URLSearchParams({ prefix });
    if (after !== null) params.set("after", after);
    try {
      const page = await api<ObjectList>(`/api/buckets/${encodeURIComponent(bucket)}/objects?${params.toString()}`);
      setObjects((list) => (after === null ? page.objects : [...list, ...page.objects]));
      setNext(page.next);
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => void load(null), [bucket, prefix, generation]);

  const download = (key: string) => `/api/buckets/${encodeURIComponent(bucket)}/download?key=${encodeURIComponent(key)}`;
  return (
    <section class="card" aria-labelledby="objects-h" data-testid="objects">
      <div class="card-head">
        <h2 id="objects-h">
          Objects in <span class="mono">{bucket}</span>
        </h2>
        <label class="inline">
          Prefix <input class="mono" value={prefix} onChange={(e) => setPrefix(e.currentTarget.value)} placeholder="any" />
        </label>
      </div>
      <ErrorBox error={error} />
      {!loading && !error && objects.length === 0 && <p class="muted">No objects{prefix ? ` under “${prefix}”` : ""}.</p>}
      {objects.length > 0 && (
        <table class="grid compact">
          <thead>
            <tr>
              <th>Name</th>
              <th class="num">Size</th>
              <th>Content type</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {objects.map((o) => (
              <tr key={o.name} data-testid="object">
                <td class="mono">{o.name}</td>
                <td class="num mono">{bytes(o.size)}</td>
                <td class="mono muted">{o.contentType ?? "—"}</td>
                <td class="links">
                  <a href={download(o.name)} download>
                    download
                  </a>
                  {o.publicUrl && (
                    <a href={o.publicUrl} target="_blank" rel="noreferrer">
                      public URL
                    </a>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {loading && <Loading what="objects" />}
      {next !== null && !loading && (
        <button type="button" class="secondary" onClick={() => void load(next)}>
          More
        </button>
      )}
    </section>
  );
}
