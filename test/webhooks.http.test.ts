// Webhooks over real HTTP, the app as a process and a receiver started here: every event of a
// scripted session arrives signed; 10,000 clicks arrive in batches that sum to exactly 10,000
// per link, no batch twice; a failing receiver is retried, then its webhook disabled and its
// owner's mail published; "send again" sends the same body; and, with the default settings,
// webhooks to loopback (by address or by a name resolving to it) are refused at registration
// and at delivery.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiCaller, signUpAndLogIn, type Call, type Reply } from "./support/api-client.ts";
import { dropServerDatabases, startApp, type RunningApp } from "./support/app-process.ts";
import { startReceiver, validSignature, type Receiver } from "./support/webhook-receiver.ts";
import { whenLogged } from "../runtime/test/command.ts";

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}webhooks_`;
const dataDir = mkdtempSync(path.join(tmpdir(), "webhooks-"));
const env = (allowPrivate: boolean) => ({
  DATA_DIR: dataDir,
  DATABASE_NAME_PREFIX: prefix,
  NATS_URL: "",
  JWTSecret: "webhooks-test-secret-".repeat(3),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: allowPrivate ? "on" : "off",
  WEBHOOK_DISABLE_AFTER_FAILURES: "3",
  SHORTEN_LIMIT_PER_USER: "off",
  // A click flush makes one delivery for its links; flushing once a second keeps the 10,000
  // clicks' deliveries (one per flush while clicks arrive) under the delivery log's page of
  // 200 however slowly a busy machine clicks, within the test's 180 s.
  CLICK_FLUSH_INTERVAL_MS: "1000",
});

let app: RunningApp;
let call: Call;
let receiver: Receiver;
let user: { userID: string; token: string };

beforeAll(async () => {
  receiver = await startReceiver();
  app = await startApp(env(true));
  call = apiCaller(() => app.url);
  user = await signUpAndLogIn(call, "hooks@example.com");
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await receiver?.close();
  await dropServerDatabases(prefix);
});

const ok = (reply: Reply) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};
const as = (method: string, route: string, body?: unknown) => call(method, route, { token: user.token, body });
const hooks = () => `/workspaces/${user.userID}/webhooks`;

interface Body {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown> & { code?: string; clicks?: { code: string; clicks: number }[]; total?: number };
}

async function addWebhook(route: string, events: string[]): Promise<{ id: string; secret: string }> {
  const made = ok(await as("POST", hooks(), { url: `${receiver.url}${route}`, events }));
  expect(made.secret).toMatch(/^whsec_/);
  return { id: made.id as string, secret: made.secret as string };
}

/** What arrived on `route`, parsed, once each signature checked. */
function arrived(route: string, secret: string): Body[] {
  return receiver.received
    .filter((r) => r.path === route)
    .map((r) => {
      expect(validSignature(secret, r.headers["webhook-signature"], r.body), r.body).toBe(true);
      return JSON.parse(r.body) as Body;
    });
}

async function eventually<T>(read: () => T | Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const clicksOf = (bodies: Body[], code: string) =>
  bodies.filter((b) => b.type === "link.clicked").flatMap((b) => b.data.clicks!.filter((c) => c.code === code).map((c) => c.clicks));
const sum = (ns: number[]) => ns.reduce((a, b) => a + b, 0);

async function click(code: string): Promise<void> {
  const res = await fetch(`${app.url}/${code}`, { redirect: "manual", headers: { accept: "text/html" } });
  expect(res.status).toBe(302);
  await res.body?.cancel();
}

describe("webhooks", () => {
  test("a scripted session: created, updated, clicked and deleted arrive, each signed, in order of the session", async () => {
    const { secret } = await addWebhook("/session", ["link.created", "link.updated", "link.deleted", "link.clicked"]);
    const listed = ok(await as("GET", hooks())).webhooks as { url: string; enabled: boolean; secret?: string }[];
    expect(listed).toEqual([expect.objectContaining({ url: `${receiver.url}/session`, enabled: true })]);
    expect(listed[0]!.secret).toBeUndefined(); // shown once only

    const code = ok(await as("POST", "/shorten", { url: "https://hooks.example/a", title: "A" })).code as string;
    await eventually(() => arrived("/session", secret), (b) => b.some((e) => e.type === "link.created"), "link.created");
    const rules = [{ device: "ios", url: "https://hooks.example/ios" }];
    ok(await as("PATCH", `/links/${code}`, { title: "B", forwardQuery: false, rules, preview: { title: "Card" } }));
    await eventually(() => arrived("/session", secret), (b) => b.some((e) => e.type === "link.updated"), "link.updated");
    for (let i = 0; i < 3; i++) await click(code);
    await eventually(() => arrived("/session", secret), (b) => sum(clicksOf(b, code)) === 3, "3 clicks");
    ok(await as("DELETE", `/links/${code}`));
    const bodies = await eventually(() => arrived("/session", secret), (b) => b.some((e) => e.type === "link.deleted"), "link.deleted");

    expect(bodies.find((b) => b.type === "link.created")!.data).toMatchObject({ code, url: "https://hooks.example/a", title: "A", workspaceId: user.userID });
    expect(bodies.find((b) => b.type === "link.created")!.data).toMatchObject({ redirectType: 302, forwardQuery: true, rules: [], preview: null });
    expect(bodies.find((b) => b.type === "link.updated")!.data).toMatchObject({
      code,
      title: "B",
      forwardQuery: false,
      rules: [{ id: expect.any(String), device: "ios", url: "https://hooks.example/ios" }],
      preview: { title: "Card" },
    });
    expect(bodies.find((b) => b.type === "link.deleted")!.data).toMatchObject({ code });
    expect(new Set(bodies.map((b) => b.id)).size).toBe(bodies.length);
    for (const b of bodies) expect(Date.parse(b.createdAt)).not.toBeNaN();
  });

  test("10,000 clicks on 4 links arrive in batches summing to exactly 2,500 per link, no batch twice", async () => {
    const { id, secret } = await addWebhook("/clicks", ["link.clicked"]);
    const codes: string[] = [];
    for (let i = 0; i < 4; i++) codes.push(ok(await as("POST", "/shorten", { url: `https://hooks.example/many/${i}` })).code as string);
    const jobs = Array.from({ length: 10_000 }, (_, i) => codes[i % 4]!);
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        for (let job = jobs.pop(); job !== undefined; job = jobs.pop()) await click(job);
      }),
    );
    const bodies = await eventually(
      () => arrived("/clicks", secret),
      (b) => codes.every((c) => sum(clicksOf(b, c)) >= 2500),
      "2,500 clicks per link",
      60_000,
    );
    // Every delivery the app made has arrived, and was delivered once: the sums are final. (The
    // log marks a delivery delivered just after the receiver answered, so it is waited for.)
    const log = await eventually(
      async () => ok(await as("GET", `${hooks()}/${id}/deliveries?limit=200`)).deliveries as { id: string; status: string }[],
      (deliveries) => deliveries.every((d) => d.status === "delivered"),
      "every click delivery logged as delivered",
    );
    expect(log.length).toBeLessThan(200); // the whole log is this one page
    expect(new Set(bodies.map((b) => b.id))).toEqual(new Set(log.map((d) => d.id)));
    expect(bodies.length).toBe(log.length);
    for (const code of codes) expect(sum(clicksOf(bodies, code))).toBe(2500);
    for (const b of bodies) expect(b.data.total).toBe(sum(b.data.clicks!.map((c) => c.clicks)));
    expect(bodies.length).toBeGreaterThan(1); // batches, not one message per click nor one in all
    expect(bodies.length).toBeLessThan(10_000);
  }, 180_000);

  test("a receiver answering 500 is retried, each attempt logged, then the webhook is disabled and its owner's mail published", async () => {
    const { id } = await addWebhook("/status/500", ["link.created"]);
    ok(await as("POST", "/shorten", { url: "https://hooks.example/fails" }));
    const hook = await eventually(
      async () => (ok(await as("GET", hooks())).webhooks as { id: string; enabled: boolean; disabledReason?: string }[]).find((w) => w.id === id)!,
      (w) => !w.enabled,
      "the webhook disabled",
      60_000,
    );
    expect(hook.disabledReason).toMatch(/after 3 failed deliveries in a row.*500/);
    const [delivery] = ok(await as("GET", `${hooks()}/${id}/deliveries`)).deliveries as { status: string; attempts: { statusCode: number; durationMs: number }[] }[];
    expect(delivery!.status).toBe("failed");
    expect(delivery!.attempts).toHaveLength(3);
    for (const a of delivery!.attempts) expect(a).toMatchObject({ statusCode: 500, error: "the receiver answered 500", durationMs: expect.any(Number) });
    expect(receiver.received.filter((r) => r.path === "/status/500")).toHaveLength(3);
    // The outgoing-mail topic took the mail (the mail service sends it; its own tests cover that).
    await whenLogged(app, /"kind":"webhook-disabled","msg":"(the webhook's owner is told by mail)"/, "the mail published", 10_000);

    // Enabled again: the count starts over.
    expect(ok(await as("PATCH", `${hooks()}/${id}`, { enabled: true }))).toMatchObject({ enabled: true, consecutiveFailures: 0 });
    expect((ok(await as("GET", hooks())).webhooks as { id: string; disabledReason?: string }[]).find((w) => w.id === id)!.disabledReason).toBeUndefined();
  }, 90_000);

  test("send again delivers the same body, newly signed", async () => {
    const { id, secret } = await addWebhook("/again", ["link.created"]);
    ok(await as("POST", "/shorten", { url: "https://hooks.example/again" }));
    const [first] = await eventually(() => receiver.received.filter((r) => r.path === "/again"), (r) => r.length === 1, "the delivery");
    const deliveryId = (JSON.parse(first!.body) as Body).id;
    const resent = ok(await as("POST", `${hooks()}/${id}/deliveries/${deliveryId}/resend`));
    expect(resent).toMatchObject({ id: deliveryId });
    const both = await eventually(() => receiver.received.filter((r) => r.path === "/again"), (r) => r.length === 2, "the second send");
    expect(both[1]!.body).toBe(both[0]!.body);
    expect(validSignature(secret, both[1]!.headers["webhook-signature"], both[1]!.body)).toBe(true);
    const log = await eventually(
      async () => (ok(await as("GET", `${hooks()}/${id}/deliveries`)).deliveries as { attempts: unknown[] }[])[0]!,
      (d) => d.attempts.length === 2,
      "two attempts logged",
    );
    expect(log).toMatchObject({ id: deliveryId, status: "delivered" });
  });

  test("who may: a stranger gets 404, an API key 403, bad input 400", async () => {
    const stranger = await signUpAndLogIn(call, "stranger@example.com");
    expect(await call("GET", hooks(), { token: stranger.token })).toMatchObject({ status: 404 });
    const key = ok(await as("POST", "/me/api-keys", { name: "script", scopes: ["links:read", "links:write"] })).key as string;
    expect(await call("GET", hooks(), { token: key })).toMatchObject({ status: 403, body: { code: "permission_denied" } });
    expect(await as("POST", hooks(), { url: `${receiver.url}/x`, events: ["link.exploded"] })).toMatchObject({ status: 400 });
    expect(await as("POST", hooks(), { url: `${receiver.url}/x`, events: [] })).toMatchObject({ status: 400 });
    expect(await as("POST", hooks(), { url: "ftp://example.com/x", events: ["link.created"] })).toMatchObject({ status: 400 });
    // The app's own host (PUBLIC_BASE_URL, the runtime's default here), even with private targets allowed.
    expect(await as("POST", hooks(), { url: "https://sho.rt/hook", events: ["link.created"] })).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining("this app itself") },
    });
  });
});

describe("webhooks with the default settings (no private targets)", () => {
  let strict: RunningApp;
  beforeAll(async () => {
    // The same databases: the webhook the permissive app registered to the receiver is there.
    await app.stop();
    strict = await startApp(env(false));
  }, 120_000);
  afterAll(async () => {
    await strict?.stop();
  });

  test("loopback, by address or by a name that resolves to it, and private ranges are refused with the reason", async () => {
    const strictCall = apiCaller(() => strict.url);
    const login = await strictCall("POST", "/auth/login", { body: { email: "hooks@example.com", password: "correct horse battery" } });
    const token = login.body.token as string;
    for (const url of [
      `http://127.0.0.1:${receiver.port}/`,
      `http://localhost:${receiver.port}/`,
      "http://[::1]/",
      "http://10.1.2.3/",
      "http://169.254.169.254/latest/meta-data",
      "http://100.64.0.1/",
      "http://[::ffff:127.0.0.1]/",
      "http://0.0.0.0/",
    ]) {
      const reply = await strictCall("POST", `/workspaces/${user.userID}/webhooks`, { token, body: { url, events: ["link.created"] } });
      expect(reply, url).toMatchObject({ status: 400, body: { code: "invalid_argument", message: expect.stringMatching(/non-public|this app itself/) } });
    }

    // At delivery too: the webhooks registered while allowed are not sent to; the refusal is logged as the attempt.
    const before = receiver.received.length;
    const code = ok(await strictCall("POST", "/shorten", { token, body: { url: "https://hooks.example/strict" } })).code as string;
    const sessionHook = (ok(await strictCall("GET", `/workspaces/${user.userID}/webhooks`, { token })).webhooks as { id: string; url: string }[]).find((w) =>
      w.url.endsWith("/session"),
    )!;
    const attempt = await eventually(
      async () => (ok(await strictCall("GET", `/workspaces/${user.userID}/webhooks/${sessionHook.id}/deliveries`, { token })).deliveries as { body: string; attempts: { error?: string }[] }[]).find((d) => d.body.includes(code)),
      (d) => d !== undefined && d.attempts.length > 0,
      "the refused attempt",
    );
    expect(attempt!.attempts[0]!.error).toMatch(/non-public/);
    expect(receiver.received.slice(before).some((r) => r.body.includes(code))).toBe(false);
  }, 60_000);
});
