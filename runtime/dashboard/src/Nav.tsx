import { useLive, type LinkState } from "./live.ts";
import { href, type Route } from "./router.ts";

const items: readonly { label: string; href: string; pages: readonly Route["page"][] }[] = [
  { label: "Services", href: href.services, pages: ["services", "endpoint"] },
  { label: "Flow", href: href.flow, pages: ["flow"] },
  { label: "Traces", href: href.traces(), pages: ["traces", "trace"] },
  { label: "Pub/Sub", href: href.pubsub, pages: ["pubsub"] },
  { label: "Cron", href: href.cron, pages: ["cron"] },
  { label: "Databases", href: href.databases, pages: ["databases"] },
  { label: "Buckets", href: href.buckets, pages: ["buckets"] },
  { label: "Caches", href: href.caches, pages: ["caches"] },
];

const stateText: Record<LinkState, string> = {
  connecting: "connecting…",
  connected: "connected",
  reconnecting: "app restarting, reconnecting…",
  locked: "no access: open the link run printed",
};

export function Nav({ route }: { route: Route }) {
  const live = useLive();
  return (
    <nav aria-label="Dashboard">
      <div class="brand">
        <span class="app-name">{live.app?.appName ?? "Encore app"}</span>
        <span class="muted small">development dashboard</span>
      </div>
      <ul>
        {items.map((item) => (
          <li key={item.label}>
            <a href={item.href} aria-current={item.pages.includes(route.page) ? "page" : undefined}>
              {item.label}
            </a>
          </li>
        ))}
      </ul>
      <div class="link-status" data-testid="link-status" data-state={live.state} role="status">
        <span class="dot" aria-hidden="true" />
        {stateText[live.state]}
      </div>
      {live.app && (
        <a class="small app-url" href={live.app.appBaseUrl} target="_blank" rel="noreferrer">
          {live.app.appBaseUrl}
        </a>
      )}
    </nav>
  );
}
