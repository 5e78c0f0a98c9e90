// Custom domains over real HTTP, two domains on loopback told apart by their Host header:
// added, checked through DOMAIN_CHECK_CONNECT_TO (a relay here, which the test points at
// this server or elsewhere), links made on them answering on their own domain only, their
// shortUrl and QR image carrying the domain, who may do what, and the limit on checks.
import jsQR from "jsqr";
import http from "node:http";
import net from "node:net";
import { domainToASCII } from "node:url";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { apiCaller, signUpAndLogIn, type Reply } from "./support/api-client.ts";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";

const relayPort = vi.hoisted(() => {
  // Read once, when the configs load: every check connects to the relay, whose target the tests choose.
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  process.env.DOMAIN_CHECK_CONNECT_TO = `127.0.0.1:${port}`;
  process.env.QR_CODES = "on";
  process.env.TRUST_PROXY = "off";
  return port;
});

let server: TestServer;
let relay: net.Server;
/** Where the relay sends a check's connection: this server's port, or another. */
let relayTarget = 0;
let wrongAnswers: http.Server;

beforeAll(async () => {
  server = await startTestServer();
  relayTarget = Number(new URL(server.url).port);
  relay = net.createServer((socket) => {
    const upstream = net.connect(relayTarget, "127.0.0.1");
    socket.pipe(upstream).pipe(socket);
    upstream.on("error", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(relayPort, "127.0.0.1", resolve));
  wrongAnswers = http.createServer((_req, res) => res.end("something else"));
  await new Promise<void>((resolve) => wrongAnswers.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  relay?.close();
  wrongAnswers?.close();
  await server?.close();
});

const call = apiCaller(() => server.url);
const ok = (reply: Reply) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
};
let accounts = 0;
const signedIn = () => signUpAndLogIn(call, `domains-${++accounts}-${Date.now()}@example.com`);
const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

interface Answer {
  status: number;
  location?: string;
  body: Buffer;
}

/** A request to this server as if sent to `host` (its Host header). */
function onHost(host: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${server.url}${path}`, { headers: { host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, location: res.headers.location, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
  });
}

describe("custom domains", () => {
  test("added, checked through the relay, links answer on their own domain only; shortUrl and QR carry it", async () => {
    const { token, userID } = await signedIn();
    const ws = `/workspaces/${userID}/domains`;
    const one = `go-${run}.example.com`;
    const two = `Links-${run}.Example.ORG`;

    const added = ok(await call("POST", ws, { token, body: { host: one } }));
    expect(added).toMatchObject({ host: one, verified: false });
    expect(added.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(added.checkUrl).toBe(`http://${one}/.well-known/url-shortener/${added.token}`);
    const second = ok(await call("POST", ws, { token, body: { host: two } }));
    expect(second.host).toBe(two.toLowerCase());
    // Taken by any workspace, in any case.
    const other = await signedIn();
    expect(await call("POST", `/workspaces/${other.userID}/domains`, { token: other.token, body: { host: one.toUpperCase() } })).toMatchObject({
      status: 409,
      body: { code: "already_exists" },
    });

    // The token is answered on any host; an unknown one is 404.
    const wellKnown = await onHost("anything.example", `/.well-known/url-shortener/${added.token}`);
    expect([wellKnown.status, wellKnown.body.toString()]).toEqual([200, added.token]);
    expect((await onHost(one, `/.well-known/url-shortener/${"x".repeat(32)}`)).status).toBe(404);

    // No link on an unverified domain.
    expect(await call("POST", "/shorten", { token, body: { url: "https://example.com/early", domain: one } })).toMatchObject({
      status: 400,
      body: { code: "invalid_argument", message: expect.stringContaining("domain") },
    });

    const checked = ok(await call("POST", `${ws}/${one}/check`, { token }));
    expect(checked).toMatchObject({ host: one, verified: true });
    expect(new Date(checked.verifiedAt as string).getTime()).toBeGreaterThan(Date.now() - 60_000);
    ok(await call("POST", `${ws}/${two.toLowerCase()}/check`, { token }));

    const made = ok(await call("POST", "/shorten", { token, body: { url: "https://example.com/on-one", domain: one.toUpperCase() } }));
    expect(made.shortUrl).toBe(`https://${one}/${made.code}`);
    const plain = ok(await call("POST", "/shorten", { token, body: { url: "https://example.com/plain" } }));
    const bulk = ok(await call("POST", "/links/bulk", { token, body: { items: [{ url: "https://example.com/on-two", domain: two }, { url: "https://example.com/x", domain: "nope.example.com" }] } }));
    const [onTwo, refused] = bulk.results as Record<string, unknown>[];
    expect(onTwo!.shortUrl).toBe(`https://${two.toLowerCase()}/${onTwo!.code}`);
    expect(refused).toMatchObject({ error: { code: "invalid_argument" } });

    // Each code answers on its own host only (the set of domains reaches the url service by notification).
    const code = made.code as string;
    await expect.poll(async () => (await onHost(one, `/${code}`)).status).toBe(200);
    expect(JSON.parse((await onHost(`${one}:8080`, `/${code}`)).body.toString())).toEqual({ url: "https://example.com/on-one" });
    expect((await onHost(two, `/${code}`)).status).toBe(404);
    expect((await onHost("sho.rt", `/${code}`)).status).toBe(404);
    expect((await onHost("127.0.0.1", `/${code}`)).status).toBe(404);
    expect((await onHost(two.toLowerCase(), `/${onTwo!.code}`)).status).toBe(200);
    expect((await onHost(one, `/${onTwo!.code}`)).status).toBe(404);
    expect((await onHost("sho.rt", `/${plain.code}`)).status).toBe(200);
    expect((await onHost(one, `/${plain.code}`)).status).toBe(404);

    // A domain's analytics: the clicks its links answered (two on one, one on two), no other link's.
    const totalOf = async (host: string) => (ok(await call("GET", `${ws}/${host}/analytics`, { token })).totals as { all: number }).all;
    await expect.poll(() => totalOf(one)).toBe(2);
    await expect.poll(() => totalOf(two)).toBe(1); // named in any case
    expect(ok(await call("GET", `${ws}/${one}/analytics`, { token })).domain).toBe(one);
    expect(await call("GET", `${ws}/nope-${run}.example.com/analytics`, { token })).toMatchObject({ status: 404, body: { message: "domain not found" } });
    expect(await call("GET", `${ws}/${one}/analytics`, { token: other.token })).toMatchObject({ status: 404, body: { message: "workspace not found" } });

    // The link as listed, filtered by domain; its QR image encodes the domain's short link.
    const link = ok(await call("GET", `/links/${code}`, { token }));
    expect(link).toMatchObject({ domain: one, shortUrl: `https://${one}/${code}` });
    expect(ok(await call("GET", `/links/${plain.code}`, { token })).domain).toBeUndefined();
    const listed = ok(await call("GET", `/links?domain=${one}`, { token })).links as { code: string }[];
    expect(listed.map((l) => l.code)).toEqual([code]);
    const png = await fetch(`${server.url}${new URL(made.qrCodeUrl as string).pathname}`);
    expect(png.status).toBe(200);
    const image = PNG.sync.read(Buffer.from(await png.arrayBuffer()));
    expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(`https://${one}/${code}`);

    // Where unknown codes and the root go, once set.
    ok(await call("PATCH", `${ws}/${one}`, { token, body: { notFoundUrl: "https://example.com/missing", rootUrl: "https://example.com/home" } }));
    expect(await call("PATCH", `${ws}/${one}`, { token, body: { rootUrl: `https://${one}/x` } })).toMatchObject({ status: 400 });
    expect(await call("PATCH", `${ws}/${one}`, { token, body: { rootUrl: "ftp://example.com" } })).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining("rootUrl") },
    });
    await expect.poll(async () => (await onHost(one, "/nosuchcode")).location).toBe("https://example.com/missing");
    expect((await onHost(one, `/${plain.code}`)).location).toBe("https://example.com/missing");
    // A path that can be no code is an unknown code of the domain too.
    expect((await onHost(one, "/no.such~code")).location).toBe("https://example.com/missing");
    expect((await onHost(two, "/nosuchcode")).status).toBe(404);
    // / is the domain's: its root URL, or its own page; anywhere else the front end's page.
    expect((await onHost(one, "/")).location).toBe("https://example.com/home");
    const page = await onHost(two, "/");
    expect([page.status, page.body.toString()]).toEqual([200, expect.stringContaining(two.toLowerCase())]);
    const frontEnd = await onHost("sho.rt", "/");
    expect([frontEnd.status, frontEnd.body.toString()]).toEqual([200, expect.stringContaining('<script type="module"')]);

    // The list, and removal: refused while a link uses the domain.
    const domains = ok(await call("GET", ws, { token })).domains as { host: string; rootUrl?: string }[];
    expect(domains.map((d) => d.host)).toEqual([two.toLowerCase(), one].sort());
    expect(await call("DELETE", `${ws}/${one}`, { token })).toMatchObject({ status: 400, body: { code: "failed_precondition" } });
    const unused = `spare-${run}.example.net`;
    ok(await call("POST", ws, { token, body: { host: unused } }));
    expect((await call("DELETE", `${ws}/${unused}`, { token })).status).toBe(200);
    expect(await call("DELETE", `${ws}/${unused}`, { token })).toMatchObject({ status: 404 });
  });

  test("a check fails, saying why, when the domain does not route here", async () => {
    const { token, userID } = await signedIn();
    const ws = `/workspaces/${userID}/domains`;
    const host = `elsewhere-${run}.example.com`;
    ok(await call("POST", ws, { token, body: { host } }));
    relayTarget = (wrongAnswers.address() as net.AddressInfo).port;
    try {
      expect(await call("POST", `${ws}/${host}/check`, { token })).toMatchObject({
        status: 400,
        body: { code: "failed_precondition", message: expect.stringContaining("something other than the token") },
      });
      relayTarget = 1; // nothing listens there: the relay closes the connection
      expect(await call("POST", `${ws}/${host}/check`, { token })).toMatchObject({ status: 400, body: { code: "failed_precondition" } });
    } finally {
      relayTarget = Number(new URL(server.url).port);
    }
    expect((ok(await call("GET", ws, { token })).domains as { verified: boolean }[])[0]!.verified).toBe(false);
  });

  test("30 checks per workspace in an hour: the 31st is 429 with Retry-After; other workspaces check on", async () => {
    const { token, userID } = await signedIn();
    const ws = `/workspaces/${userID}/domains`;
    const host = `often-${run}.example.com`;
    ok(await call("POST", ws, { token, body: { host } }));
    // A domain the workspace does not have is 404 and costs nothing: nothing was fetched.
    expect(await call("POST", `${ws}/nothere-${run}.example.com/check`, { token })).toMatchObject({ status: 404 });
    for (let i = 0; i < 30; i++) ok(await call("POST", `${ws}/${host}/check`, { token }));
    const refused = await fetch(`${server.url}${ws}/${host}/check`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { code: string; message: string; details: { retryAfterSeconds: number } };
    expect(body).toMatchObject({ code: "resource_exhausted", message: expect.stringMatching(/^too many domain checks in this workspace; try again in \d+ seconds$/) });
    expect(body.details.retryAfterSeconds).toBeLessThanOrEqual(3600);
    expect(refused.headers.get("retry-after")).toBe(String(body.details.retryAfterSeconds));

    const other = await signedIn();
    const otherHost = `sometimes-${run}.example.com`;
    ok(await call("POST", `/workspaces/${other.userID}/domains`, { token: other.token, body: { host: otherHost } }));
    expect(ok(await call("POST", `/workspaces/${other.userID}/domains/${otherHost}/check`, { token: other.token })).verified).toBe(true);
  });

  test("hosts that are no domain of anyone's are refused", async () => {
    const { token, userID } = await signedIn();
    const ws = `/workspaces/${userID}/domains`;
    for (const host of ["127.0.0.1", "[::1]", "localhost", "app.localhost", "sho.rt", "example.com:8080", "https://x.example.com", "nodot", "-bad.example.com", ""]) {
      expect(await call("POST", ws, { token, body: { host } }), host).toMatchObject({ status: 400, body: { code: "invalid_argument" } });
    }
    // An IDN is stored in punycode.
    expect(ok(await call("POST", ws, { token, body: { host: `Bücher-${run}.example` } })).host).toBe(domainToASCII(`bücher-${run}.example`));
  });

  test("a workspace member reads the domains; only owners and admins change them (403)", async () => {
    const owner = await signedIn();
    const member = await signedIn();
    const outsider = await signedIn();
    const team = ok(await call("POST", "/workspaces", { token: owner.token, body: { name: "Domain team" } })).id as string;
    const invitation = ok(await call("POST", `/workspaces/${team}/invitations`, { token: owner.token, body: { role: "member" } }));
    ok(await call("POST", "/invitations/accept", { token: member.token, body: { token: invitation.token } }));
    const ws = `/workspaces/${team}/domains`;
    const host = `team-${run}.example.com`;
    ok(await call("POST", ws, { token: owner.token, body: { host } }));

    expect((ok(await call("GET", ws, { token: member.token })).domains as unknown[]).length).toBe(1);
    expect(await call("POST", ws, { token: member.token, body: { host: `more-${run}.example.com` } })).toMatchObject({ status: 403 });
    expect(await call("POST", `${ws}/${host}/check`, { token: member.token })).toMatchObject({ status: 403 });
    expect(await call("PATCH", `${ws}/${host}`, { token: member.token, body: { rootUrl: null } })).toMatchObject({ status: 403 });
    expect(await call("DELETE", `${ws}/${host}`, { token: member.token })).toMatchObject({ status: 403 });
    expect(await call("GET", ws, { token: outsider.token })).toMatchObject({ status: 404 });
    expect(await call("GET", ws)).toMatchObject({ status: 401 });

    // A member makes links on the team's verified domain; another workspace's domain is refused.
    ok(await call("POST", `${ws}/${host}/check`, { token: owner.token }));
    const made = ok(await call("POST", "/shorten", { token: member.token, body: { url: "https://example.com/team", workspaceId: team, domain: host } }));
    expect(made.shortUrl).toBe(`https://${host}/${made.code}`);
    expect(await call("POST", "/shorten", { token: outsider.token, body: { url: "https://example.com/theirs", domain: host } })).toMatchObject({ status: 400 });
  });
});
