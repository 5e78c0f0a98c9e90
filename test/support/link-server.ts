// A test file's server for the HTTP tests of links, with one signed-in account: started
// before the file's tests, closed after them. The file sets TRUST_PROXY=on (in vi.hoisted,
// before the configs load), so each call below names a client address of its own and no
// two calls share a limit's budget.
import { afterAll, beforeAll } from "vitest";
import { startTestServer, type TestServer } from "../../runtime/test/server.ts";
import { LinkClient } from "./link-client.ts";

export interface LinkServer {
  readonly client: LinkClient;
  /** The account's login token, once the server is up. */
  readonly token: string;
  /** POST /shorten as the account (anonymously when `signedIn` is false). */
  tryShorten(body: Record<string, unknown>, signedIn?: boolean): Promise<Response>;
  /** POST /shorten as the account, which must succeed: the new link's code. */
  shorten(body: Record<string, unknown>): Promise<string>;
  /** PATCH /links/:code as the account. */
  patch(code: string, body: Record<string, unknown>): Promise<Response>;
  /** GET /links/:code as the account, which must succeed: the Link. */
  readLink(code: string): Promise<Record<string, unknown>>;
}

/** Registers the file's server and account (`email`) in beforeAll and afterAll. */
export function linkServer(email: string): LinkServer {
  let server: TestServer | undefined;
  let token: string | undefined;
  const client = new LinkClient(() => server!.url);
  beforeAll(async () => {
    server = await startTestServer();
    token = await client.signUp(email);
  });
  afterAll(() => server?.close());
  const as = (signedIn = true) => ({ token: signedIn ? token : undefined, from: client.nextAddress() });
  return {
    client,
    get token() {
      return token!;
    },
    tryShorten: (body, signedIn) => client.post("/shorten", body, as(signedIn)),
    shorten: (body) => client.shorten(body, as()),
    patch: (code, body) => client.request("PATCH", `/links/${code}`, { ...as(), headers: { "content-type": "application/json" } }, JSON.stringify(body)),
    readLink: async (code) => {
      const res = await client.request("GET", `/links/${code}`, { token });
      const link = (await res.json()) as Record<string, unknown>;
      if (res.status !== 200) throw new Error(`GET /links/${code}: ${res.status} ${JSON.stringify(link)}`);
      return link;
    },
  };
}
