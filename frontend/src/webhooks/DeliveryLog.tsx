import { useEffect, useState } from "preact/hooks";
import { client, errorMessage } from "../api";
import type { webhooks } from "../client.gen";
import { Alert } from "../components/Alert";
import { formatTime } from "../format";

/** A webhook's newest deliveries, each with its attempts, and "Send again" for those who may. */
export function DeliveryLog({ workspaceId, hook, mayManage }: { workspaceId: string; hook: webhooks.Webhook; mayManage: boolean }) {
  const [deliveries, setDeliveries] = useState<webhooks.Delivery[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const reload = () =>
    client.webhooks.listDeliveries(workspaceId, hook.id, { limit: 50 }).then(
      (res) => setDeliveries(res.deliveries),
      (err: unknown) => setError(errorMessage(err)),
    );
  useEffect(() => void reload(), [hook.id]);

  const resend = async (d: webhooks.Delivery) => {
    setError(null);
    try {
      await client.webhooks.resendDelivery(workspaceId, hook.id, d.id);
      setNotice(`Sending ${d.type} again.`);
      await reload();
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <section class="delivery-log" aria-label={`Deliveries to ${hook.url}`}>
      <p role="status" class={notice ? "notice" : "status-line"}>
        {notice}
      </p>
      {error && <Alert>{error}</Alert>}
      <button type="button" class="secondary" onClick={() => void reload()}>
        Refresh
      </button>
      {deliveries && deliveries.length === 0 && <p>No deliveries yet.</p>}
      {deliveries && deliveries.length > 0 && (
        <ul class="deliveries">
          {deliveries.map((d) => {
            const last = d.attempts[d.attempts.length - 1];
            return (
              <li key={d.id} class={`delivery ${d.status}`}>
                <p>
                  <strong>{d.type}</strong> · <span class="delivery-status">{d.status}</span> ·{" "}
                  <time dateTime={d.createdAt}>{formatTime(d.createdAt)}</time>
                </p>
                <p class="hint">
                  {d.attempts.length} attempt{d.attempts.length === 1 ? "" : "s"}
                  {last && ` · last: ${last.statusCode ?? "no answer"}${last.error ? ` (${last.error})` : ""} in ${last.durationMs} ms`}
                </p>
                <details>
                  <summary>Payload</summary>
                  <pre class="payload">{JSON.stringify(JSON.parse(d.body), null, 2)}</pre>
                </details>
                {mayManage && hook.enabled && (
                  <button type="button" class="secondary" aria-label={`Send ${d.type} ${d.id} again`} onClick={() => void resend(d)}>
                    Send again
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
