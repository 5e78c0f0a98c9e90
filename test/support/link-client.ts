// What the HTTP tests of links with options share: requests from a given client address
// (the test files run with TRUST_PROXY=on, so X-Forwarded-For names it), as a given user.
import { expect } from "vitest";
import { clickCounter } from "../../url/click-counting/instance.ts";
import { db } from "../../url/db.ts";

export interface Sent {
  /** X-Forwarded-For: the client's address (TRUST_PROXY=on). */
  from?: string;
  /** A login token. */
  token?: string;
  headers?: Record<string, string>;
}

export class LinkClient {
  #addresses = 0;

  constructor(readonly baseUrl: () => string) {}

  /** An address no other test of the file used: its own budgets. */
  nextAddress(): string {
    this.#addresses++;
    return `198.18.${Math.floor(this.#addresses / 250)}.${(this.#addresses % 250) + 1}`;
  }

  request(method: string, path: string, { from, token, headers }: Sent = {}, body?: string): Promise<Response> {
    return fetch(`${this.baseUrl()}${path}`, {
      method,
      redirect: "manual",
      headers: { ...(from ? { "x-forwarded-for": from } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      body,
    });
  }

  post(path: string, body: unknown, sent: Sent = {}): Promise<Response> {
    return this.request("POST", path, sent, JSON.stringify(body));
  }

  /** A new account, signed in: its token. */
  async signUp(email: string): Promise<string> {
    const from = this.nextAddress();
    expect((await this.post("/users", { email, name: "N", age: 30, password: "a long password" }, { from })).status).toBe(200);
    const res = await this.post("/auth/login", { email, password: "a long password" }, { from });
    return ((await res.json()) as { token: string }).token;
  }

  /** POST /shorten that must succeed: its code. */
  async shorten(body: Record<string, unknown>, sent: Sent = {}): Promise<string> {
    const res = await this.post("/shorten", body, sent);
    const answer = (await res.json()) as { code: string };
    expect(res.status, JSON.stringify(answer)).toBe(200);
    return answer.code;
  }
}

/** A response's status and its body as JSON. */
export async function replyOf(res: Response): Promise<{ status: number; body: Record<string, unknown> }> {
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Clicks stored for `code` once every counted click is written. */
export async function storedClicks(code: string): Promise<number> {
  await clickCounter.flush();
  return (await db.queryRow<{ clicks: number }>`SELECT clicks FROM urls WHERE code = ${code}`)!.clicks;
}

export const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/** The headers every page of a link (unavailable, password form) must carry. */
export function expectPageHeaders(res: Response): void {
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(res.headers.get("content-security-policy")).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; /);
  expect(res.headers.get("content-security-policy")).not.toMatch(/script-src|unsafe/);
  expect(res.headers.get("x-frame-options")).toBe("DENY");
  expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
}
