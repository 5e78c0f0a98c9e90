import { useEffect, useState } from "preact/hooks";
import { client, errorMessage } from "../api";
import type { links } from "../client.gen";
import { Alert } from "../components/Alert";
import { ClickAnalytics } from "../components/ClickAnalytics";
import { formatTime } from "../format";
import { href } from "../router";

/** A custom domain's clicks: the sum of every link made on it (deleted ones too), as a tag's page shows a tag's. */
export function DomainStatsPage({ workspaceId, host }: { workspaceId: string; host: string }) {
  const [domain, setDomain] = useState<links.Domain | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setDomain(null);
    setError(null);
    client.links.listDomains(workspaceId).then(
      ({ domains }) => {
        const found = domains.find((d) => d.host === host.toLowerCase());
        if (found) setDomain(found);
        else setError("No such domain in this workspace.");
      },
      (err: unknown) => setError(errorMessage(err)),
    );
  }, [workspaceId, host]);

  return (
    <>
      <h1 tabIndex={-1}>{domain ? `Domain ${domain.host}` : "Domain"}</h1>
      {error && <Alert>{error}</Alert>}
      {!domain && !error && <p aria-live="polite">Loading…</p>}
      {domain && (
        <>
          <dl class="facts">
            <dt>Status</dt>
            <dd>{domain.verified ? "Verified" : "Not verified"}</dd>
            <dt>Added</dt>
            <dd>
              <time dateTime={domain.createdAt}>{formatTime(domain.createdAt)}</time>
            </dd>
          </dl>
          <p class="hint">
            Clicks of every link made on this domain, deleted links included; "All time" counts from when the domain was added.{" "}
            <a href={href.domains(workspaceId)}>Back to the domains</a>
          </p>
          <ClickAnalytics
            source={`${workspaceId}/${domain.host}`}
            createdAt={domain.createdAt}
            load={(query) => client.analytics.domainAnalytics(workspaceId, domain.host, query)}
          />
        </>
      )}
    </>
  );
}
