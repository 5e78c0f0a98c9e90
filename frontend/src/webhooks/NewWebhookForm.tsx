import { useState } from "preact/hooks";
import { client } from "../api";
import type { webhooks } from "../client.gen";
import { Alert } from "../components/Alert";
import { Field } from "../components/Field";
import { useApiForm } from "../form";
import { eventLabels, allEvents } from "./events";

const labels = { url: "URL", events: "Events" } as const;

/** Registers a webhook; the caller shows its secret, which the API answers this once. */
export function NewWebhookForm({ workspaceId, onCreated }: { workspaceId: string; onCreated: (hook: webhooks.CreatedWebhook) => void }) {
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<string[]>(allEvents);
  const { busy, formError, errorOf, run } = useApiForm(labels);
  const eventsError = errorOf("events");
  const toggle = (event: string, on: boolean) => setEvents((chosen) => allEvents.filter((e) => (e === event ? on : chosen.includes(e))));

  const submit = async (e: Event) => {
    e.preventDefault();
    const done = await run(async () => onCreated(await client.webhooks.createWebhook(workspaceId, { url: url.trim(), events })));
    if (done) setUrl("");
  };

  return (
    <form onSubmit={submit} noValidate class="stacked-form" aria-labelledby="new-webhook-heading">
      <h2 id="new-webhook-heading">New webhook</h2>
      <Field
        id="webhook-url"
        label="URL"
        type="url"
        hint="Where to POST each event: a public http or https address."
        maxLength={2000}
        value={url}
        onInput={(e) => setUrl(e.currentTarget.value)}
        error={errorOf("url")}
      />
      <fieldset class="field scopes" aria-describedby={eventsError ? "webhook-events-error" : undefined}>
        <legend>Events</legend>
        {allEvents.map((event) => (
          <label class="check" key={event}>
            <input type="checkbox" name="webhook-events" value={event} checked={events.includes(event)} onChange={(e) => toggle(event, e.currentTarget.checked)} />{" "}
            {eventLabels[event]}
          </label>
        ))}
        {eventsError && (
          <p class="field-error" id="webhook-events-error">
            {eventsError}
          </p>
        )}
      </fieldset>
      {formError && <Alert>{formError}</Alert>}
      <button type="submit" disabled={busy}>
        {busy ? "Adding…" : "Add webhook"}
      </button>
    </form>
  );
}
