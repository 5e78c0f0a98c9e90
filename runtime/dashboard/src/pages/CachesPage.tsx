import { useState } from "preact/hooks";
import type { CacheKeyLookup, CachesState } from "../../../internal/dashboard/api.ts";
import { api, asApiError, type ApiError } from "../api.ts";
import { Badge } from "../components/Badge.tsx";
import { ErrorBox } from "../components/ErrorBox.tsx";
import { Empty, Loading, PageHeader } from "../components/PageHeader.tsx";
import { prettyJson } from "../format.ts";
import { href } from "../router.ts";
import { useApi } from "../use-api.ts";

type Cluster = CachesState["clusters"][number];

/** The app's cache clusters with their keyspaces, and a key lookup in the one chosen. */
export function CachesPage({ selected }: { selected: string | null }) {
  const { data, error, reload } = useApi<CachesState>("/api/caches");
  const cluster = data?.clusters.find((c) => c.name === selected) ?? (selected === null ? data?.clusters[0] : undefined);
  return (
    <>
      <PageHeader title="Caches">
        <button type="button" class="secondary" onClick={reload}>
          Refresh
        </button>
      </PageHeader>
      <ErrorBox error={error} />
      {!data && !error && <Loading what="caches" />}
      {data && data.clusters.length === 0 && <Empty>The app declares no cache clusters.</Empty>}
      {data && data.clusters.length > 0 && (
        <section class="card">
          <p class="muted small" data-testid="cache-backend">
            {data.backend === "redis" ? "Keys are on the Redis server of REDIS_URL, shared by every instance." : "Keys are in this process's memory (REDIS_URL is not set)."}
          </p>
          <table class="grid" data-testid="clusters">
            <thead>
              <tr>
                <th>Cluster</th>
                <th>Eviction policy</th>
                <th class="num">Keyspaces</th>
              </tr>
            </thead>
            <tbody>
              {data.clusters.map((c) => (
                <tr key={c.name} class={c === cluster ? "selected" : undefined}>
                  <td class="mono">
                    <a href={href.cache(c.name)} aria-current={c === cluster ? "page" : undefined}>
                      {c.name}
                    </a>
                  </td>
                  <td class="mono">{c.evictionPolicy}</td>
                  <td class="num">{c.keyspaces.length}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {data && selected !== null && !cluster && <p>The app has no cache cluster named “{selected}”.</p>}
      {cluster && <ClusterDetail key={cluster.name} cluster={cluster} />}
    </>
  );
}

function ClusterDetail({ cluster }: { cluster: Cluster }) {
  return (
    <>
      <section class="card" aria-labelledby="keyspaces-h" data-testid="keyspaces">
        <h2 id="keyspaces-h">
          Keyspaces of <span class="mono">{cluster.name}</span>
        </h2>
        {cluster.keyspaces.length === 0 ? (
          <p class="muted">No keyspace is bound to this cluster.</p>
        ) : (
          <table class="grid compact">
            <thead>
              <tr>
                <th>Key pattern</th>
                <th>Type</th>
                <th>Key → value</th>
                <th>Default expiry</th>
                <th>Declared in</th>
              </tr>
            </thead>
            <tbody>
              {cluster.keyspaces.map((k) => (
                <tr key={`${k.keyPattern} ${k.source}`} data-testid="keyspace">
                  <td class="mono">{k.keyPattern}</td>
                  <td>
                    <Badge tone="accent">{k.type}</Badge>
                  </td>
                  <td class="mono small">
                    {k.keyType} → {k.valueType}
                  </td>
                  <td class="mono small">{k.defaultExpiry ?? <span class="muted">never</span>}</td>
                  <td class="mono small muted">{k.service ? <a href={href.service(k.service)}>{k.source}</a> : k.source}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <KeyLookup cluster={cluster} />
    </>
  );
}

/** Reads one key (its type, value and time to live) without changing it. */
function KeyLookup({ cluster }: { cluster: Cluster }) {
  const [key, setKey] = useState("");
  const [result, setResult] = useState<CacheKeyLookup | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [running, setRunning] = useState(false);
  const example = cluster.keyspaces[0]?.keyPattern.replace(/:[^/]+/g, (p) => `<${p.slice(1)}>`) ?? "key";

  const lookUp = async () => {
    setRunning(true);
    setError(null);
    try {
      setResult(await api<CacheKeyLookup>(`/api/caches/${encodeURIComponent(cluster.name)}/key?key=${encodeURIComponent(key)}`));
    } catch (err) {
      setResult(null);
      setError(asApiError(err));
    } finally {
      setRunning(false);
    }
  };
  return (
    <section class="card" aria-labelledby="lookup-h" data-testid="key-lookup">
      <h2 id="lookup-h">Look up a key</h2>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          void lookUp();
        }}
      >
        <label class="inline">
          Key{" "}
          <input class="mono" value={key} onInput={(e) => setKey(e.currentTarget.value)} placeholder={example} aria-label="Key" spellcheck={false} />
        </label>
        <button type="submit" disabled={running || key === ""}>
          Look up
        </button>
      </form>
      <p class="muted small">
        The key as its keyspace makes it, e.g. <code>{example}</code>; it is stored under <code>{cluster.name}/</code>.
      </p>
      <ErrorBox error={error} />
      {result && <LookupResult result={result} />}
    </section>
  );
}

function LookupResult({ result }: { result: CacheKeyLookup }) {
  const { entry } = result;
  if (entry === null) {
    return (
      <p data-testid="lookup-result">
        No key <code>{result.key}</code> in <span class="mono">{result.cluster}</span> (never written, deleted or expired).
      </p>
    );
  }
  const shown = typeof entry.value === "string" ? prettyJson(entry.value).text : entry.value.join("\n");
  return (
    <div data-testid="lookup-result">
      <p>
        <Badge tone="accent">{entry.type}</Badge>{" "}
        {Array.isArray(entry.value) && <span class="muted small">{entry.value.length} items · </span>}
        <span class="small" data-testid="lookup-ttl">
          {entry.ttlMs === null ? "does not expire" : `expires in ${timeLeft(entry.ttlMs)}`}
        </span>
      </p>
      <pre class="code" data-testid="lookup-value">
        {shown}
      </pre>
    </div>
  );
}

/** "1 h 5 min", "4 min 10 s", "12 s": a time to live as a person reads it. */
function timeLeft(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${s} s`;
}
