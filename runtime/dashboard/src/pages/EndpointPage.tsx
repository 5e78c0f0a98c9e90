import type { Catalog, CatalogEndpoint } from "../../../internal/dashboard/api.ts";
import { MethodBadge } from "../components/Badge.tsx";
import { Doc } from "../components/Doc.tsx";
import { ErrorBox } from "../components/ErrorBox.tsx";
import { Loading, PageHeader } from "../components/PageHeader.tsx";
import { Explorer } from "../explorer/Explorer.tsx";
import { href } from "../router.ts";
import { useApi } from "../use-api.ts";
import { EndpointBadges } from "./ServicesPage.tsx";

/** One endpoint: what it takes and answers, and the explorer to call it. */
export function EndpointPage({ service, endpoint: name }: { service: string; endpoint: string }) {
  const { data, error } = useApi<Catalog>("/api/catalog");
  const endpoint = data?.services.find((s) => s.name === service)?.endpoints.find((e) => e.name === name);
  return (
    <>
      <PageHeader title={`${service}.${name}`} sub={<a href={href.service(service)}>← {service}</a>}>
        <a class="button secondary" href={href.traces({ service, name })}>
          Its traces
        </a>
      </PageHeader>
      <ErrorBox error={error} />
      {!data && !error && <Loading what="the endpoint" />}
      {data && !endpoint && <p>The app has no endpoint {service}.{name} (any more).</p>}
      {endpoint && <EndpointDetail key={`${service}.${name}`} endpoint={endpoint} />}
    </>
  );
}

function EndpointDetail({ endpoint }: { endpoint: CatalogEndpoint }) {
  return (
    <>
      <div class="endpoint-line">
        {endpoint.methods.map((m) => (
          <MethodBadge key={m} method={m} />
        ))}
        <code class="path">{endpoint.path}</code>
        <EndpointBadges endpoint={endpoint} />
        <span class="muted small mono" title="Where it is declared">
          {endpoint.source}
        </span>
      </div>
      <Doc text={endpoint.doc} />
      <div class="two-col">
        <section aria-labelledby="request-h">
          <h2 id="request-h">Request</h2>
          {endpoint.request === null ? (
            <p class="muted">No parameters.</p>
          ) : (
            <>
              <table class="grid fields">
                <thead>
                  <tr>
                    <th>Field</th>
                    <th>In</th>
                    <th>Type</th>
                    <th>Doc</th>
                  </tr>
                </thead>
                <tbody>
                  {endpoint.request.fields.map((field) => (
                    <tr key={field.name}>
                      <td class="mono">
                        {field.name}
                        {field.optional && <span class="muted">?</span>}
                      </td>
                      <td>
                        {field.location}
                        {field.wireName !== field.name && <span class="muted mono"> {field.wireName}</span>}
                      </td>
                      <td class="mono type">{field.type}</td>
                      <td class="muted">{field.doc}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <pre class="code type-text">{endpoint.request.type}</pre>
            </>
          )}
        </section>
        <section aria-labelledby="response-h">
          <h2 id="response-h">Response</h2>
          {endpoint.response === null ? <p class="muted">{endpoint.kind === "typed" ? "Nothing: an empty answer." : `Written by the ${endpoint.kind} handler.`}</p> : <pre class="code type-text">{endpoint.response}</pre>}
        </section>
      </div>
      <Explorer endpoint={endpoint} />
    </>
  );
}
