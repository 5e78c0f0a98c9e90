import { useEffect, useState } from "preact/hooks";
import { client, errorMessage } from "../../api";
import type { moderation } from "../../client.gen";
import { Alert } from "../../components/Alert";
import { Field } from "../../components/Field";
import { formatTime } from "../../format";
import { adminHref } from "../../router";
import { Cards, counted } from "./Shared";

/** Banned target hosts: banned with a reason, unbanned. */
export function HostsTab({ onNotice }: { onNotice: (text: string) => void }) {
  const [hosts, setHosts] = useState<moderation.BannedHost[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [host, setHost] = useState("");
  const [reason, setReason] = useState("");
  const load = () => client.moderation.listBannedHosts().then((res) => setHosts(res.hosts), (err: unknown) => setError(errorMessage(err)));
  useEffect(() => void load(), []);

  const ban = async (event: Event) => {
    event.preventDefault();
    try {
      const done = await client.moderation.banHost({ host: host.trim(), reason: reason.trim() || undefined });
      onNotice(`Banned ${done.action.target}: ${counted(done.links, "link")} disabled.`);
      setHost("");
      setReason("");
      await load();
    } catch (err) {
      onNotice(errorMessage(err));
    }
  };
  const unban = async (banned: moderation.BannedHost) => {
    try {
      const done = await client.moderation.unbanHost(banned.host, {});
      onNotice(`Unbanned ${banned.host}: ${counted(done.links, "link")} ${done.links === 1 ? "redirects" : "redirect"} again.`);
      await load();
    } catch (err) {
      onNotice(errorMessage(err));
    }
  };

  return (
    <section aria-labelledby="hosts-heading">
      <h2 id="hosts-heading">Banned hosts</h2>
      <form class="link-filters" onSubmit={ban}>
        <Field id="ban-host" label="Host (with its subdomains)" value={host} onInput={(e) => setHost(e.currentTarget.value)} required placeholder="evil.example" />
        <Field id="ban-reason" label="Reason" value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
        <button type="submit">Ban host</button>
      </form>
      {error && <Alert>{error}</Alert>}
      {hosts && hosts.length === 0 && <p>No host is banned.</p>}
      <Cards label="Banned hosts">
        {(hosts ?? []).map((banned) => (
          <li key={banned.host}>
            <div class="link-head">
              <a class="link-title" href={adminHref("links", { host: banned.host })}>
                {banned.host}
              </a>
            </div>
            {banned.reason && <span>{banned.reason}</span>}
            <span class="meta">Banned {formatTime(banned.bannedAt)}</span>
            <div class="actions">
              <button type="button" onClick={() => unban(banned)} aria-label={`Unban ${banned.host}`}>
                Unban
              </button>
            </div>
          </li>
        ))}
      </Cards>
    </section>
  );
}
