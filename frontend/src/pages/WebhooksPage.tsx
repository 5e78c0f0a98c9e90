import { useEffect, useRef, useState } from "preact/hooks";
import { client, errorMessage } from "../api";
import type { webhooks } from "../client.gen";
import { Alert } from "../components/Alert";
import { ConfirmButton } from "../components/ConfirmButton";
import { CopyButton } from "../components/CopyButton";
import { href } from "../router";
import { DeliveryLog } from "../webhooks/DeliveryLog";
import { eventLabels } from "../webhooks/events";
import { NewWebhookForm } from "../webhooks/NewWebhookForm";
import type { Workspace } from "../workspaces/chosen";
import { mayDo } from "../workspaces/roles";

/**
 * A workspace's webhooks: owners and admins add, enable, disable and delete them and send a
 * delivery again; members read them and their logs (webhooks/records/access.ts, the same
 * roles as managing members).
 */
export function WebhooksPage({ workspaceId }: { workspaceId: string }) {
  const [workspace, setWorkspace] = useState<Workspace | null>(null);
  const [hooks, setHooks] = useState<webhooks.Webhook[] | null>(null);
  const [created, setCreated] = useState<webhooks.CreatedWebhook | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const heading = useRef<HTMLHeadingElement>(null);
  const reload = () =>
    Promise.all([client.workspaces.getWorkspace(workspaceId), client.webhooks.listWebhooks(workspaceId)]).then(
      ([w, list]) => (setWorkspace(w), setHooks(list.webhooks)),
      (err: unknown) => setError(errorMessage(err)),
    );
  useEffect(() => void reload(), [workspaceId]);

  const mayManage = workspace !== null && mayDo(workspace.role, "manage-members");
  const said = (message: string) => {
    setNotice(message);
    void reload();
    heading.current?.focus();
  };
  const setEnabled = async (hook: webhooks.Webhook, enabled: boolean) => {
    try {
      await client.webhooks.changeWebhook(workspaceId, hook.id, { enabled });
      said(`${enabled ? "Enabled" : "Disabled"} the webhook to ${hook.url}.`);
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <>
      <h1 tabIndex={-1} ref={heading}>
        Webhooks{workspace ? ` of ${workspace.name}` : ""}
      </h1>
      <p>
        Each event of this workspace's links is POSTed as JSON to every webhook that wants it, signed with the webhook's secret in the{" "}
        <code>Webhook-Signature</code> header. <a href={href.workspace(workspaceId)}>Back to the workspace</a>
      </p>
      {error && <Alert>{error}</Alert>}
      <p role="status" class={notice ? "notice" : "status-line"}>
        {notice}
      </p>
      {mayManage && <NewWebhookForm workspaceId={workspaceId} onCreated={(hook) => (setCreated(hook), said(`Added the webhook to ${hook.url}.`))} />}
      {created && (
        <section class="result" aria-labelledby="created-webhook-heading">
          <h2 id="created-webhook-heading">The new webhook's secret</h2>
          <p class="secret-line">
            <code class="secret">{created.secret}</code> <CopyButton text={created.secret} name="Copy the secret" />
          </p>
          <p class="notice">Copy it now: it will not be shown again. Your receiver checks each delivery's signature with it.</p>
        </section>
      )}
      <h2 id="webhooks-heading">Webhooks</h2>
      {hooks && hooks.length === 0 && <p>No webhooks yet.</p>}
      {hooks && hooks.length > 0 && (
        <ul class="webhooks" aria-labelledby="webhooks-heading">
          {hooks.map((hook) => (
            <li key={hook.id} class="webhook">
              <p class="webhook-url">
                <code>{hook.url}</code> <span class={hook.enabled ? "badge" : "badge off"}>{hook.enabled ? "Enabled" : "Disabled"}</span>
              </p>
              {hook.disabledReason && <p class="notice">{hook.disabledReason}</p>}
              <p class="hint">{hook.events.map((e) => eventLabels[e] ?? e).join(" · ")}</p>
              <div class="actions">
                <button type="button" class="secondary" aria-expanded={open === hook.id} onClick={() => setOpen(open === hook.id ? null : hook.id)}>
                  {open === hook.id ? "Hide deliveries" : "Deliveries"}
                </button>
                {mayManage && (
                  <button type="button" class="secondary" onClick={() => void setEnabled(hook, !hook.enabled)}>
                    {hook.enabled ? "Disable" : "Enable"}
                  </button>
                )}
                {mayManage && (
                  <ConfirmButton
                    label="Delete"
                    name={`Delete the webhook to ${hook.url}`}
                    question={`Delete the webhook to ${hook.url} and its delivery log?`}
                    confirmLabel="Delete"
                    onConfirm={async () => {
                      await client.webhooks.removeWebhook(workspaceId, hook.id);
                      said(`Deleted the webhook to ${hook.url}.`);
                    }}
                  />
                )}
              </div>
              {open === hook.id && <DeliveryLog workspaceId={workspaceId} hook={hook} mayManage={mayManage} />}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
