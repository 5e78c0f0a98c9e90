import type { ComponentChildren } from "preact";
import type { Catalog, CatalogEndpoint, CatalogService } from "../../../internal/dashboard/api.ts";
import { Badge, MethodBadge } from "../components/Badge.tsx";
import { Doc } from "../components/Doc.tsx";
import { ErrorBox } from "../components/ErrorBox.tsx";
import { Loading, PageHeader } from "../components/PageHeader.tsx";
import { href } from "../router.ts";
import { useApi } from "../use-api.ts";

/** The catalog: every service with its endpoints and resources, or one service's entry. */
export function ServicesPage({ only }: { only: string | null }) {
  const { data, error } = useApi<Catalog>("/api/catalog");
  const services = data?.services.filter((s) => only === null || s.name === only) ?? [];
  return (
    <>
      <PageHeader
        title={only ?? "Services"}
        sub={only !== null ? <a href={href.services}>← all services</a> : data && `${data.services.length} services, ${data.services.reduce((n, s) => n + s.endpoints.length, 0)} endpoints`}
      />
      <ErrorBox error={error} />
      {!data && !error && <Loading what="the catalog" />}
      {data && only !== null && services.length === 0 && <p>The app has no service named “{only}” (any more).</p>}
      {services.map((service) => (
        <ServiceEntry key={service.name} service={service} />
      ))}
      {data && only === null && <AppWide catalog={data} />}
    </>
  );
}

function ServiceEntry({ service }: { service: CatalogService }) {
  return (
    <section class="card" data-testid={`service-${service.name}`} aria-labelledby={`svc-${service.name}`}>
      <h2 id={`svc-${service.name}`}>
        <a href={href.service(service.name)}>{service.name}</a> <span class="muted small mono">{service.dir}/</span>
      </h2>
      <Doc text={service.doc} />
      {service.endpoints.length > 0 ? (
        <table class="grid endpoints">
          <tbody>
            {service.endpoints.map((endpoint) => (
              <EndpointRow key={endpoint.name} endpoint={endpoint} />
            ))}
          </tbody>
        </table>
      ) : (
        <p class="muted">No endpoints.</p>
      )}
      <Resources service={service} />
    </section>
  );
}

function EndpointRow({ endpoint }: { endpoint: CatalogEndpoint }) {
  const link = href.endpoint(endpoint.service, endpoint.name);
  return (
    <tr data-testid="endpoint" data-endpoint={`${endpoint.service}.${endpoint.name}`}>
      <td class="methods">
        {endpoint.methods.map((m) => (
          <MethodBadge key={m} method={m} />
        ))}
      </td>
      <td class="mono">
        <a href={link}>{endpoint.path}</a>
      </td>
      <td class="mono muted">{endpoint.name}</td>
      <td class="badges">
        <EndpointBadges endpoint={endpoint} />
      </td>
      <td class="doc-cell muted">{endpoint.doc?.split("\n")[0]}</td>
    </tr>
  );
}

export function EndpointBadges({ endpoint }: { endpoint: CatalogEndpoint }) {
  return (
    <>
      {endpoint.expose ? <Badge tone="accent">exposed</Badge> : <Badge tone="muted" title="Reachable only from other services and this dashboard">internal</Badge>}
      {endpoint.auth ? <Badge tone="warn">auth</Badge> : <Badge>public</Badge>}
      {endpoint.kind !== "typed" && <Badge tone="muted">{endpoint.kind}</Badge>}
      {endpoint.tags.map((tag) => (
        <Badge key={tag} tone="muted">
          #{tag}
        </Badge>
      ))}
    </>
  );
}

function Resources({ service }: { service: CatalogService }) {
  const rows: [string, ComponentChildren[]][] = [
    ["databases", service.databases.map((d) => <a href={href.database(d)}>{d}</a>)],
    ["topics", service.topics.map((t) => <a href={href.pubsub}>{t}</a>)],
    ["publishes to", service.publishes.map((t) => <a href={href.pubsub}>{t}</a>)],
    ["subscriptions", service.subscriptions.map((s) => (
      <a href={href.pubsub}>
        {s.name} <span class="muted">← {s.topic}</span>
      </a>
    ))],
    ["cron jobs", service.cronJobs.map((c) => <a href={href.cron}>{c}</a>)],
    ["buckets", service.buckets.map((b) => <a href={href.bucket(b)}>{b}</a>)],
    ["calls", service.calls.map((c) => <a href={href.service(c)}>{c}</a>)],
  ];
  const present = rows.filter(([, items]) => items.length > 0);
  if (present.length === 0) return null;
  return (
    <dl class="resources">
      {present.map(([label, items]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>
            {items.map((item, i) => (
              <span class="chip mono" key={i}>
                {item}
              </span>
            ))}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function AppWide({ catalog }: { catalog: Catalog }) {
  return (
    <section class="card" aria-labelledby="app-wide">
      <h2 id="app-wide">App-wide</h2>
      <dl class="resources">
        <div>
          <dt>secrets</dt>
          <dd data-testid="secrets">
            {catalog.secrets.length === 0 && <span class="muted">none</span>}
            {catalog.secrets.map((s) => (
              <span class="chip mono" key={s}>
                {s}
              </span>
            ))}
          </dd>
        </div>
        <div>
          <dt>auth handler</dt>
          <dd>
            {catalog.auth ? (
              <span class="mono">
                {catalog.auth.service}.{catalog.auth.name}
              </span>
            ) : (
              <span class="muted">none</span>
            )}
          </dd>
        </div>
      </dl>
      {catalog.auth && (
        <div class="two-col">
          <div>
            <h3>Auth parameters</h3>
            <pre class="code">{catalog.auth.params}</pre>
          </div>
          <div>
            <h3>Auth data</h3>
            <pre class="code">{catalog.auth.authData}</pre>
          </div>
        </div>
      )}
    </section>
  );
}
