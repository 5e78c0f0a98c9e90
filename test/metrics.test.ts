// The app as `npm start` runs it, with METRICS_PORT and METRICS_TOKEN: metrics on a port of
// their own, behind the token, counting the app's real traffic (the raw fast lane of short
// links, typed endpoints, the url-shortened events analytics consumes).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { whenListening, whenLogged } from "../runtime/test/command.ts";
import { dropServerDatabases, spawnApp } from "./support/app-process.ts";
import { hasSeries, parseScrape, valueOf, type Scrape } from "../runtime/test/prometheus.ts";

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}metrics_`;
const token = "app-metrics-token-0123456789";
const env = {
  DATA_DIR: mkdtempSync(path.join(tmpdir(), "app-metrics-")),
  DATABASE_NAME_PREFIX: prefix,
  METRICS_PORT: "0",
  METRICS_TOKEN: token,
  CRON: "off",
};

afterAll(() => dropServerDatabases(prefix));

test("METRICS_PORT serves the app's metrics to the token's bearer; the app's port does not serve them", async () => {
  const spawned = spawnApp(env);
  const metricsPort = await whenLogged(spawned, /"metrics":"http:\/\/[^"]*:(\d+)\/metrics \(bearer token required\)"/, "serving metrics", 90_000);
  const app = await whenListening(spawned);
  try {
    const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    const scrape = async (): Promise<Scrape> => {
      const res = await fetch(metricsUrl, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      return parseScrape(await res.text());
    };
    expect((await fetch(metricsUrl)).status).toBe(401);
    const before = await scrape();

    const { code } = (await (await fetch(`${app.url}/shorten`, { method: "POST", body: '{"url":"https://example.com/metrics"}' })).json()) as { code: string };
    for (let i = 0; i < 5; i++) expect((await fetch(`${app.url}/${code}`)).status).toBe(200);
    expect((await fetch(`${app.url}/${code}/stats`)).status).toBe(200);
    const onAppPort = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(await onAppPort.text()).not.toContain("e_requests_total"); // the app's own "/:code" answers it

    const delivered = { topic: "url-shortened", subscription: "track-analytics", outcome: "delivered" };
    const deadline = Date.now() + 30_000;
    let after = await scrape();
    while (valueOf(after, "e_pubsub_deliveries_total", delivered) === valueOf(before, "e_pubsub_deliveries_total", delivered) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      after = await scrape();
    }
    const delta = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(delta("e_requests_total", { service: "url", endpoint: "resolve", code: "ok", status_class: "2xx" })).toBe(5);
    expect(delta("e_request_duration_seconds", { service: "url", endpoint: "resolve", status_class: "2xx" })).toBe(5);
    expect(delta("e_requests_total", { service: "links", endpoint: "shorten", code: "ok", status_class: "2xx" })).toBe(1);
    expect(delta("e_requests_total", { service: "url", endpoint: "stats", code: "ok", status_class: "2xx" })).toBe(1);
    expect(delta("e_pubsub_published_total", { topic: "url-shortened" })).toBe(1);
    expect(delta("e_pubsub_deliveries_total", delivered)).toBe(1);
    expect(valueOf(after, "e_db_pool_max", { database: "url" })).toBeGreaterThan(0);
    expect(after.has("process_cpu_seconds_total")).toBe(true);

    // The services' own families: the links service's outbox gauges, set by the sweep at start (nothing
    // waits once delivered), and the url service's clicks', set by the first write of clicks, within the
    // 100 ms flush interval of the lookups (a delivery can come sooner).
    // The first flush may come before the last lookups' clicks: settled once none is pending.
    const settled = (s: Scrape) =>
      hasSeries(s, "url_outbox_rows", { service: "links" }) && s.has("url_click_flushes") && valueOf(s, "url_clicks_pending", { service: "url" }) === 0;
    const sweepDeadline = Date.now() + 15_000;
    while (!settled(after) && Date.now() < sweepDeadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      after = await scrape();
    }
    expect(hasSeries(after, "url_outbox_rows", { service: "links" })).toBe(true);
    expect(valueOf(after, "url_outbox_rows", { service: "links" })).toBe(0);
    expect(valueOf(after, "url_outbox_lag_seconds", { service: "links" })).toBe(0);
    // The five clicks were written (flush interval 100 ms), timed, and none is left pending.
    // No click before this test's lookups: these families appear with them.
    expect(before.has("url_click_flushes")).toBe(false);
    expect(valueOf(after, "url_click_flushes", { service: "url", outcome: "written" })).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, "url_click_flush_microseconds", { service: "url" })).toBeGreaterThan(0);
    expect(valueOf(after, "url_click_flush_last_seconds", { service: "url" })).toBeGreaterThan(0);
    expect(hasSeries(after, "url_clicks_pending", { service: "url" })).toBe(true);
    expect(valueOf(after, "url_clicks_pending", { service: "url" })).toBe(0);
  } finally {
    expect(await app.stop("SIGTERM")).toBe(0); // the metrics listener closes with the app
  }
}, 120_000);
