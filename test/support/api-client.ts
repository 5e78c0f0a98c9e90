// HTTP calls to a test server as a client makes them: JSON in, JSON (or nothing) out.

export interface Reply {
  status: number;
  body: Record<string, unknown>;
}

export interface CallOptions {
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is, instead of `body` (malformed input). */
  raw?: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  headers?: Record<string, string>;
}

export type Call = (method: string, path: string, opts?: CallOptions) => Promise<Reply>;

/** A caller for the server at `baseUrl()`, read at each call (servers start in beforeAll). */
export function apiCaller(baseUrl: () => string): Call {
  return async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
    const res = await fetch(`${baseUrl()}${path}`, {
      method,
      headers,
      body: opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
}

/** Signs up with `email` (name Ada, age 36 unless given) and logs in; both replies are returned for checks. */
export async function signUpAndLogIn(
  call: Call,
  email: string,
  profile: { name?: string; age?: number } = {},
): Promise<{ created: Reply; login: Reply; userID: string; token: string }> {
  const password = "correct horse battery";
  const created = await call("POST", "/users", { body: { email, name: profile.name ?? "Ada", age: profile.age ?? 36, password } });
  const login = await call("POST", "/auth/login", { body: { email, password } });
  return { created, login, userID: created.body.id as string, token: login.body.token as string };
}
