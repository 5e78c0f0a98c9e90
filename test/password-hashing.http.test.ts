// Sign-ups cannot starve logins, nor logins sign-ups: a burst of one kind, more than its
// share of libuv's thread pool and its line hold (passwords/scrypt-slots.ts), leaves the other
// kind a thread of its own, and the requests past the line are refused at once. Each
// wait is compared with one hash measured here and now (the host's speed swings under
// load), and with how many of the burst's hashes were done meanwhile.
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";
import { scryptSlots } from "../passwords/passwords.ts";

vi.hoisted(() => {
  // The flood's failed logins are all from 127.0.0.1: what is under test is the line, not that limit.
  process.env.LOGIN_FAILURES_PER_ADDRESS = "off";
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  expect((await post("/users", { email: "owner@example.com", name: "O", age: 40, password: "correct horse battery" })).status).toBe(200);
});
afterAll(() => server.close());

function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, { method: "POST", body: JSON.stringify(body) });
}

interface Answer {
  readonly status: number;
  readonly retryAfter: string | null;
  readonly body: string;
  readonly sentAt: number;
  readonly doneAt: number;
}

async function timed(request: () => Promise<Response>): Promise<Answer> {
  const sentAt = performance.now();
  const res = await request();
  const body = await res.text();
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body, sentAt, doneAt: performance.now() };
}

const ms = (a: Answer) => a.doneAt - a.sentAt;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const logIn = () => timed(() => post("/auth/login", { email: "owner@example.com", password: "correct horse battery" }));
const signUp = (email: string) => timed(() => post("/users", { email, name: "B", age: 30, password: "correct horse battery" }));

/** A login alone: one scrypt check and little else, so about one hash's time (the median of three). */
async function oneHash(): Promise<number> {
  const alone = [await logIn(), await logIn(), await logIn()];
  expect(alone.map((a) => a.status)).toEqual([200, 200, 200]);
  return median(alone.map(ms));
}

/** Answers of `burst` with `status` that came while `waiter` was waiting. */
const doneDuring = (burst: Answer[], status: number, waiter: Answer) =>
  burst.filter((a) => a.status === status && a.doneAt > waiter.sentAt && a.doneAt < waiter.doneAt).length;

test("under a burst of sign-ups a login takes about one hash, and sign-ups past the line get 503 at once", async () => {
  const hash = await oneHash();
  const { newHashes } = scryptSlots;
  const burst = Array.from({ length: 4 * (newHashes.concurrency + newHashes.queueLimit) }, (_, i) => signUp(`burst-${i}@example.com`));
  // The burst is being hashed: every slot for new hashes is taken.
  await expect.poll(() => newHashes.running, { interval: 2, timeout: 10_000 }).toBe(newHashes.concurrency);
  const login = await logIn();
  const signUps = await Promise.all(burst);

  // About one hash, beside the sign-ups' own (measured 1-3.5x on a loaded 2-core host,
  // with at most 2 sign-ups done meanwhile). Without the bound the login waits in libuv's
  // line behind every hash of the burst (measured 17x, with 26 sign-ups done meanwhile).
  expect(login.status).toBe(200);
  expect(ms(login)).toBeLessThan(6 * hash);
  expect(doneDuring(signUps, 200, login)).toBeLessThanOrEqual(4 * newHashes.concurrency);

  expect(signUps.map((s) => s.status).filter((s) => s !== 200 && s !== 503)).toEqual([]);
  const refused = signUps.filter((s) => s.status === 503);
  const accepted = signUps.filter((s) => s.status === 200);
  expect(refused.length).toBeGreaterThan(0);
  expect(accepted.length).toBeGreaterThanOrEqual(newHashes.concurrency + newHashes.queueLimit);
  expect(new Set(refused.map((s) => s.retryAfter))).toEqual(new Set(["1"]));
  // Refused without waiting in the line: sooner than the sign-ups that did wait in it.
  expect(median(refused.map(ms))).toBeLessThan(median(accepted.map(ms)));
});

test("a refusal is 503 unavailable in Encore's format, and the server takes sign-ups again once the burst is through", async () => {
  const { newHashes } = scryptSlots;
  const burst = await Promise.all(Array.from({ length: 2 * (newHashes.concurrency + newHashes.queueLimit) }, (_, i) => signUp(`second-${i}@example.com`)));
  const refused = burst.find((a) => a.status === 503);
  expect(JSON.parse(refused!.body)).toEqual({
    code: "unavailable",
    message: "too many new passwords being hashed at once on this server; try again in a second",
    details: { retryAfterSeconds: 1 },
  });
  expect([newHashes.running, newHashes.waiting]).toEqual([0, 0]);
  expect((await signUp("after@example.com")).status).toBe(200);
});

test("a flood of logins is bounded too: past its line, 503 at once, and a sign-up meanwhile keeps its own thread", async () => {
  const hash = await oneHash();
  const { checks } = scryptSlots;
  // Unknown emails, each its own: every one is checked against the dummy hash (401), and
  // no per-email or per-pair login limit steps in before the check.
  const flood = Array.from({ length: 4 * (checks.concurrency + checks.queueLimit) }, (_, i) =>
    timed(() => post("/auth/login", { email: `nobody-${i}@example.com`, password: "a wrong password" })),
  );
  await expect.poll(() => checks.running, { interval: 2, timeout: 10_000 }).toBe(checks.concurrency);
  const during = await signUp("during-flood@example.com");
  const logins = await Promise.all(flood);

  // Measured 2.5-5x: two checks and the sign-up's hash share two cores, and the event loop
  // takes the flood's requests; 1-2 logins done meanwhile. Without the bound: behind every
  // check of the flood (measured 23x, with 39 logins done meanwhile).
  expect(during.status).toBe(200);
  expect(ms(during)).toBeLessThan(8 * hash);
  expect(doneDuring(logins, 401, during)).toBeLessThanOrEqual(6 * checks.concurrency);

  expect(logins.map((l) => l.status).filter((s) => s !== 401 && s !== 503)).toEqual([]);
  const refused = logins.filter((l) => l.status === 503);
  expect(refused.length).toBeGreaterThan(0);
  expect(JSON.parse(refused[0]!.body)).toEqual({
    code: "unavailable",
    message: "too many passwords being checked at once on this server; try again in a second",
    details: { retryAfterSeconds: 1 },
  });
  expect(refused[0]!.retryAfter).toBe("1");
});
