// Load for the fault cases: clients that look links up, shorten new ones and read stats
// against a running app, and a tally of what was answered, kept by the clients. What
// the app acknowledged (a 200) is what must not be lost afterwards.
import type { RunningApp } from "../support/app-process.ts";

/** An HTTP status, or "no answer": refused, reset, or over the request limit. */
export type Outcome = number | "no answer";

export interface Answer {
  readonly status: Outcome;
  readonly body?: string;
  readonly ms: number;
}

export interface Shortened {
  readonly code: string;
  readonly url: string;
}

/**
 * Shorten limits (POST /shorten per client address and per user) off for the fault
 * cases: their load comes from one address and would be refused as abuse. The one place
 * the suite names these variables.
 */
export const shortenLimitsOff: Record<string, string> = {
  SHORTEN_LIMIT_PER_ADDRESS: "off",
  SHORTEN_LIMIT_PER_USER: "off",
};

/** Sends one request; never throws. `limitMs`: longer than this is a hang, counted as no answer. */
export async function send(app: RunningApp, route: string, init: RequestInit = {}, limitMs = 10_000): Promise<Answer> {
  const started = performance.now();
  try {
    const res = await fetch(`${app.url}${route}`, { ...init, signal: AbortSignal.timeout(limitMs) });
    const body = await res.text();
    return { status: res.status, body, ms: performance.now() - started };
  } catch {
    return { status: "no answer", ms: performance.now() - started };
  }
}

/**
 * User-Agents the fault cases click with: browsers, which count as people, and tools and
 * crawlers, which count as bots, so a case can check both tallies survive a fault.
 */
const humanAgents = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (X11; Linux x86_64; rv:145.0) Gecko/20100101 Firefox/145.0",
];
const botAgents = ["curl/8.5.0", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"];

/** A click's User-Agent: a browser's two times in three, else a bot's. */
export function clickAgent(): { userAgent: string; human: boolean } {
  const human = Math.random() < 2 / 3;
  return { userAgent: pick(human ? humanAgents : botAgents), human };
}

/** GET /:code as a browser or a bot (clickAgent); a 200 is one click of that kind. */
export async function lookUp(app: RunningApp, code: string, limitMs?: number): Promise<Answer & { human: boolean }> {
  const { userAgent, human } = clickAgent();
  return { ...(await send(app, `/${code}`, { headers: { "user-agent": userAgent } }, limitMs)), human };
}

/** POST /shorten, anonymously or, with `token`, into that account's personal workspace. */
export async function shorten(app: RunningApp, url: string, limitMs?: number, token?: string): Promise<Answer & { code?: string }> {
  const headers = token === undefined ? undefined : { authorization: `Bearer ${token}` };
  const answer = await send(app, "/shorten", { method: "POST", body: JSON.stringify({ url }), headers }, limitMs);
  return { ...answer, code: answer.status === 200 ? (JSON.parse(answer.body!) as { code: string }).code : undefined };
}

/**
 * `n` links made one after another, each acknowledged: the odd-numbered ones by an account
 * made for them, so their clicks also count in its workspace's analytics (url migration 20),
 * which click-analytics.ts checks against its links'.
 */
export async function seedLinks(app: RunningApp, n: number, label: string): Promise<Shortened[]> {
  const token = await signUp(app, `${label}-${Date.now()}@example.com`);
  const seeded: Shortened[] = [];
  for (let i = 0; i < n; i++) {
    const url = `https://example.com/${label}/${i}`;
    const { status, code, body } = await shorten(app, url, undefined, i % 2 === 1 ? token : undefined);
    if (status !== 200) throw new Error(`seeding link ${i} answered ${status}: ${body}`);
    seeded.push({ code: code!, url });
  }
  return seeded;
}

/** A new account's token. */
async function signUp(app: RunningApp, email: string): Promise<string> {
  const password = "correct horse battery staple";
  const made = await send(app, "/users", { method: "POST", body: JSON.stringify({ email, name: "Fault Case", password }) });
  if (made.status !== 200) throw new Error(`signing up answered ${made.status}: ${made.body}`);
  const login = await send(app, "/auth/login", { method: "POST", body: JSON.stringify({ email, password }) });
  if (login.status !== 200) throw new Error(`logging in answered ${login.status}: ${login.body}`);
  return (JSON.parse(login.body!) as { token: string }).token;
}

/** Answers and what they count, kept by the clients. */
export class Tally {
  /** Answers by "kind / phase / status". */
  readonly counts = new Map<string, number>();
  /** 200 answers to GET /:code, each one click. */
  readonly clicks = new Map<string, number>();
  /** Those of `clicks` sent with a browser's User-Agent (a person's); the rest were bots'. */
  readonly humanClicks = new Map<string, number>();
  /** When each click was answered (performance.now()), in order. */
  readonly clickTimes: number[] = [];
  /** Every acknowledged shorten. */
  readonly shortened: Shortened[] = [];
  /** Longest answer by "kind / status". */
  readonly slowest = new Map<string, number>();
  requests = 0;

  add(kind: string, phase: string, answer: Answer): void {
    this.requests++;
    const key = `${kind} / ${phase} / ${answer.status}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    const slowKey = `${kind} / ${answer.status}`;
    this.slowest.set(slowKey, Math.max(this.slowest.get(slowKey) ?? 0, answer.ms));
  }

  click(code: string, human: boolean): void {
    this.clicks.set(code, (this.clicks.get(code) ?? 0) + 1);
    if (human) this.humanClicks.set(code, (this.humanClicks.get(code) ?? 0) + 1);
    this.clickTimes.push(performance.now());
  }

  get totalClicks(): number {
    return this.clickTimes.length;
  }

  get totalHumanClicks(): number {
    return [...this.humanClicks.values()].reduce((a, b) => a + b, 0);
  }

  count(filter: (kind: string, phase: string, status: string) => boolean): number {
    let n = 0;
    for (const [key, c] of this.counts) if (filter(...(key.split(" / ") as [string, string, string]))) n += c;
    return n;
  }

  /** Every answer whose status is not in `allowed`, by kind, phase and status. */
  unexpected(allowed: readonly Outcome[] = [200, 503]): Record<string, number> {
    const ok = new Set(allowed.map(String));
    return Object.fromEntries([...this.counts].filter(([key]) => !ok.has(key.split(" / ")[2]!)));
  }
}

export const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/**
 * Runs `clients` loops of `step` until `stop` is called; `done` resolves when every loop
 * has finished its last request.
 */
export function runClients(clients: number, step: () => Promise<void>): { stop: () => Promise<void>; startedAt: number } {
  let running = true;
  const loops = Array.from({ length: clients }, async () => {
    while (running) await step();
  });
  return {
    startedAt: performance.now(),
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

/**
 * One line a case prints with its figures, in the README's form ("load held, faults
 * survived, bad inputs tried, lost = 0"), so the Reliability section can quote it.
 */
export function summary(name: string, figures: Record<string, string | number>): void {
  const line = Object.entries(figures)
    .map(([k, v]) => `${k} ${v}`)
    .join("; ");
  console.log(`[faults] ${name}: ${line}`);
}

export const rps = (requests: number, ms: number): number => Math.round((requests * 1000) / ms);
