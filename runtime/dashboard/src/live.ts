// The dashboard's one EventSource on /api/events: the connection's state for the status
// indicator, the app's boot id (a new one means the app restarted, so pages refetch),
// and finished traces for the live trace list. Opened once, when the page loads.
import { useEffect, useState } from "preact/hooks";
import type { AppInfo, TraceSummary } from "../../internal/dashboard/api.ts";

/** "locked": the dashboard answered 401, this page's access is not this run's (a new `run` draws a new secret). */
export type LinkState = "connecting" | "connected" | "reconnecting" | "locked";

export interface Live {
  readonly state: LinkState;
  readonly app: AppInfo | null;
  /** Bumped whenever the app comes back with a new boot id: what pages refetch on. */
  readonly generation: number;
}

let live: Live = { state: "connecting", app: null, generation: 0 };
const watchers = new Set<(live: Live) => void>();
const traceListeners = new Set<(trace: TraceSummary) => void>();
let source: EventSource | null = null;
let retry: ReturnType<typeof setTimeout> | null = null;

function update(next: Partial<Live>): void {
  live = { ...live, ...next };
  for (const watcher of watchers) watcher(live);
}

export function connect(): void {
  source = new EventSource("/api/events");
  source.addEventListener("open", () => update({ state: "connected" }));
  source.addEventListener("hello", (event) => {
    const app = JSON.parse((event as MessageEvent<string>).data) as AppInfo;
    const restarted = live.app !== null && live.app.bootId !== app.bootId;
    update({ state: "connected", app, generation: restarted ? live.generation + 1 : live.generation });
  });
  source.addEventListener("trace", (event) => {
    const trace = JSON.parse((event as MessageEvent<string>).data) as TraceSummary;
    for (const listener of traceListeners) listener(trace);
  });
  source.addEventListener("error", () => {
    if (live.state === "locked") return;
    update({ state: "reconnecting" });
    // The browser retries by itself after a network error (the app restarting). An HTTP
    // error instead closes the source for good: then open a new one, once, a little later,
    // unless the error was 401 (access ended), which no retry mends.
    if (source?.readyState === EventSource.CLOSED && retry === null) {
      retry = setTimeout(() => {
        retry = null;
        void fetch("/api/app").then(
          (res) => (res.status === 401 ? lockOut() : connect()),
          () => connect(),
        );
      }, 2000);
    }
  });
}

/** The dashboard answered 401: stop reconnecting; the page says to open the link `run` printed. */
export function lockOut(): void {
  source?.close();
  update({ state: "locked" });
}

export function useLive(): Live {
  const [value, setValue] = useState(live);
  useEffect(() => {
    watchers.add(setValue);
    setValue(live);
    return () => void watchers.delete(setValue);
  }, []);
  return value;
}

/** Calls `listener` for each trace that finishes while the page is open; answers the unsubscribe function. */
export function onTrace(listener: (trace: TraceSummary) => void): () => void {
  traceListeners.add(listener);
  return () => void traceListeners.delete(listener);
}
