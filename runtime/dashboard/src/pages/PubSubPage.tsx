import { useState } from "preact/hooks";
import type { PublishRequest, PubSubState, SubscriptionState } from "../../../internal/dashboard/api.ts";
import { api, ApiError } from "../api.ts";
import { Badge } from "../components/Badge.tsx";
import { ErrorBox } from "../components/ErrorBox.tsx";
import { Empty, Loading, PageHeader } from "../components/PageHeader.tsx";
import { useAction } from "../components/useAction.ts";
import { count } from "../format.ts";
import { href } from "../router.ts";
import { useApi } from "../use-api.ts";

type Topic = PubSubState["topics"][number];

/** Topics, who publishes to them, and each subscription's queue; test messages and redrives. */
export function PubSubPage() {
  const { data, error, reload } = useApi<PubSubState>("/api/pubsub");
  return (
    <>
      <PageHeader title="Pub/Sub" sub={data && <>Messages carried by {data.provider === "nats" ? "NATS JetStream" : "PostgreSQL"}.</>}>
        <button type="button" class="secondary" onClick={reload}>
          Refresh
        </button>
      </PageHeader>
      <ErrorBox error={error} />
      {!data && !error && <Loading what="topics" />}
      {data && data.topics.length === 0 && <Empty>The app declares no topics.</Empty>}
      {data?.topics.map((topic) => (
        <TopicCard key={topic.name} topic={topic} onChange={reload} />
      ))}
    </>
  );
}

function TopicCard({ topic, onChange }: { topic: Topic; onChange(): void }) {
  return (
    <section class="card" data-testid={`topic-${topic.name}`} aria-labelledby={`topic-${topic.name}-h`}>
      <h2 id={`topic-${topic.name}-h`}>
        <span class="mono">{topic.name}</span> <span class="muted small">declared by <a href={href.service(topic.service)}>{topic.service}</a></span>
      </h2>
      <p class="small">
        <span class="muted">Published by </span>
        {topic.publishers.length === 0 ? <span class="muted">no service found</span> : topic.publishers.map((p) => <span class="chip mono" key={p}><a href={href.service(p)}>{p}</a></span>)}
      </p>
      {topic.subscriptions.length === 0 ? (
        <p class="muted">No subscriptions: published messages go nowhere.</p>
      ) : (
        <table class="grid">
          <thead>
            <tr>
              <th>Subscription</th>
              <th>Service</th>
              <th class="num">Backlog</th>
              <th class="num">In flight</th>
              <th class="num">Dead letters</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {topic.subscriptions.map((s) => (
              <SubscriptionRow key={s.name} topic={topic.name} subscription={s} onChange={onChange} />
            ))}
          </tbody>
        </table>
      )}
      <PublishForm topic={topic.name} onPublished={onChange} />
    </section>
  );
}

function SubscriptionRow({ topic, subscription: s, onChange }: { topic: string; subscription: SubscriptionState; onChange(): void }) {
  const redrive = useAction(async () => {
    const answer = await api<{ redriven: number }>("/api/pubsub/redrive", { topic, subscription: s.name });
    onChange();
    return answer;
  });
  return (
    <tr data-testid={`subscription-${s.name}`}>
      <td class="mono">
        <a href={href.traces({ name: s.name })}>{s.name}</a>
      </td>
      <td>
        <a href={href.service(s.service)}>{s.service}</a>
      </td>
      <td class="num mono">{count(s.backlog)}</td>
      <td class="num mono">{count(s.inFlight)}</td>
      <td class="num mono">{s.deadLetters > 0 ? <Badge tone="error">{count(s.deadLetters)}</Badge> : 0}</td>
      <td>
        {s.deadLetters > 0 && (
          <button type="button" class="secondary small" disabled={redrive.running} onClick={() => void redrive.run()}>
            Redrive
          </button>
        )}
        {redrive.result && <span class="muted small"> {redrive.result.redriven} redriven</span>}
        <ErrorBox error={redrive.error} />
      </td>
    </tr>
  );
}

function PublishForm({ topic, onPublished }: { topic: string; onPublished(): void }) {
  const [text, setText] = useState("{\n  \n}");
  const publish = useAction(async () => {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch (err) {
      throw new ApiError("invalid_argument", `the message is not JSON: ${(err as Error).message}`, 0);
    }
    if (message === null || typeof message !== "object" || Array.isArray(message)) throw new ApiError("invalid_argument", "a message is a JSON object", 0);
    const body: PublishRequest = { topic, message: message as Record<string, unknown> };
    const answer = await api<{ messageId: string }>("/api/pubsub/publish", body);
    onPublished();
    return answer;
  });
  return (
    <details class="publish">
      <summary>Publish a test message</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void publish.run();
        }}
      >
        <textarea class="mono" rows={5} aria-label={`Message for ${topic}`} value={text} onInput={(e) => setText(e.currentTarget.value)} spellcheck={false} />
        <div class="row">
          <button type="submit" disabled={publish.running}>
            Publish
          </button>
          {publish.result && (
            <span class="muted small" data-testid="published">
              Published as <code>{publish.result.messageId}</code>.
            </span>
          )}
        </div>
        <ErrorBox error={publish.error} />
      </form>
    </details>
  );
}
