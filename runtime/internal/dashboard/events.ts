import type { FastifyInstance } from "fastify";
import type { ServerResponse } from "node:http";
import type { TraceStore } from "../tracing/records.ts";
import type { AppInfo } from "./api.ts";

/** A comment line this often keeps proxies and browsers from timing an idle stream out. */
const pingMs = 25_000;

/**
 * GET /api/events: server-sent events. `hello` with the app's info on every connect (a new
 * bootId tells the page the app restarted), then `trace` for each trace that finishes.
 * After a restart the browser reconnects within a second (`retry`). Nothing runs while no
 * page is connected: the ping timer and the store's listener live with the open streams.
 */
export function registerEvents(app: FastifyInstance, info: AppInfo, store: TraceStore | null): void {
  const open = new Set<ServerResponse>();
  let ping: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;

  const broadcast = (chunk: string) => {
    for (const res of open) res.write(chunk);
  };
  const stopIfIdle = () => {
    if (open.size > 0) return;
    clearInterval(ping);
    ping = undefined;
    unsubscribe?.();
    unsubscribe = undefined;
  };

  app.get("/api/events", (req, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-content-type-options": "nosniff",
    });
    res.write(`retry: 1000\n\n${message("hello", info)}`);
    open.add(res);
    ping ??= setInterval(() => broadcast(": ping\n\n"), pingMs);
    unsubscribe ??= store?.onTrace((trace) => broadcast(message("trace", trace)));
    res.once("close", () => {
      open.delete(res);
      stopIfIdle();
    });
  });

  // Open streams would keep the server from closing.
  app.addHook("preClose", async () => {
    for (const res of open) res.end();
    open.clear();
    stopIfIdle();
  });
}

function message(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
