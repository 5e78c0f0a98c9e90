// POST /shorten with the options of issue 30 (alias, expiry, click budget, password, title)
// while the generated client's ShortenRequest does not have them yet: a plain fetch that
// fails the way the client does (APIError with the server's code and message).
import { APIError, ErrCode, type url } from "./client.gen";
import { currentSession } from "./session";

/** What an owner may set on a link when creating it. */
export interface LinkOptions {
  alias?: string;
  expiresAt?: string;
  maxClicks?: number;
  password?: string;
  title?: string;
}

export async function shortenWithOptions(target: string, options: LinkOptions): Promise<url.ShortenResponse> {
  const token = currentSession()?.token;
  const res = await fetch("/shorten", {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ url: target, ...options }),
  });
  const text = await res.text();
  if (!res.ok) {
    let error = { code: ErrCode.Unknown, message: `request failed: status ${res.status}` };
    try {
      error = JSON.parse(text) as typeof error;
    } catch {
      // Not Encore's JSON: the status says it.
    }
    throw new APIError(res.status, error);
  }
  return JSON.parse(text) as url.ShortenResponse;
}
