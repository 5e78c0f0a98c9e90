// SIGTERM with SHUTDOWN_DELAY_MS: the app's health checks turn 503 at once while it goes on
// serving for the delay; then it stops accepting, and a request still in flight (its body
// still arriving) is answered before the process exits 0.
import { mkdtempSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { dropServerDatabases, startApp } from "./support/app-process.ts";

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}drain_`;
const delayMs = 3_000;
const env = {
  DATA_DIR: mkdtempSync(path.join(tmpdir(), "health-drain-")),
  DATABASE_NAME_PREFIX: prefix,
  SHUTDOWN_DELAY_MS: String(delayMs),
};

afterAll(() => dropServerDatabases(prefix));

/** A POST /shorten whose body is sent in two halves: in flight until `finish` is called. */
function slowShorten(base: string): { finish: () => void; answered: Promise<{ status: number; body: string }> } {
  const body = Buffer.from(JSON.stringify({ url: "https://example.com/in-flight-during-shutdown" }));
  const { hostname, port } = new URL(base);
  let finish = () => {};
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      { host: hostname, port, path: "/shorten", method: "POST", agent: false, headers: { "content-length": body.length, connection: "close" } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on("error", reject);
    req.write(body.subarray(0, 10));
    finish = () => req.end(body.subarray(10));
  });
  return { finish, answered };
}

async function status(url: string): Promise<number | "refused"> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(5_000) })).status;
  } catch {
    return "refused";
  }
}

test("after SIGTERM: health 503 shutting_down while serving for SHUTDOWN_DELAY_MS, then in-flight requests finish and it exits 0", async () => {
  const app = await startApp(env);
  const health = `${app.url}/__encore/healthz`;
  expect(await status(health)).toBe(200);

  const slow = slowShorten(app.url);
  const signalled = Date.now();
  app.child.kill("SIGTERM");

  await expect.poll(() => status(health), { timeout: 2_000, interval: 50 }).toBe(503);
  const probe = await fetch(health);
  expect(probe.status).toBe(503);
  expect(await probe.json()).toMatchObject({ code: "shutting_down", details: { checks: [{ name: "shutdown", passed: false }] } });
  expect(await status(`${app.url}/healthz`)).toBe(503);
  // Still serving: a load balancer that has not seen the 503 yet loses nothing.
  const during = await fetch(`${app.url}/shorten`, { method: "POST", body: JSON.stringify({ url: "https://example.com/during-delay" }) });
  expect(during.status).toBe(200);
  expect(Date.now() - signalled).toBeLessThan(delayMs);

  // After the delay it accepts no connection, but the request in flight keeps it running.
  await expect.poll(() => status(health), { timeout: delayMs + 5_000, interval: 100 }).toBe("refused");
  expect(Date.now() - signalled).toBeGreaterThanOrEqual(delayMs);
  let exited = false;
  void app.exited.then(() => (exited = true));
  expect(exited).toBe(false);

  slow.finish();
  const answer = await slow.answered;
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.body)).toMatchObject({ code: expect.any(String) });
  expect(await app.exited).toBe(0);
  expect(app.output()).toContain('"acceptingForMs":3000');
}, 90_000);
