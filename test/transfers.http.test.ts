// Imports and exports over HTTP, the app as a process: a 100,000-row CSV imported in the
// background with its progress seen moving, bad rows reported by line, the four other
// shorteners' sample exports, export then import into another workspace (with the links'
// redirect options, rules, preview and domain), the limits, and who may do what.
import { stringify } from "csv-stringify/sync";
import { mkdtempSync, readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiCaller, signUpAndLogIn, type Call, type Reply } from "./support/api-client.ts";
import { dropServerDatabases, startApp, type RunningApp } from "./support/app-process.ts";
import type { RedirectRule as Rule } from "../link-rules/redirect-rules.ts";

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}transfers_`;
const maxRows = 100_000;
const maxBytes = 12 * 1024 * 1024;
const perUser = 10;

let app: RunningApp;
let call: Call;
/** Where every domain check connects (DOMAIN_CHECK_CONNECT_TO): a relay to the app, which answers any domain's token. */
let relay: net.Server;
beforeAll(async () => {
  let appPort = 0;
  relay = net.createServer((socket) => {
    const upstream = net.connect(appPort, "127.0.0.1");
    socket.pipe(upstream).pipe(socket);
    upstream.on("error", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  app = await startApp({
    DOMAIN_CHECK_CONNECT_TO: `127.0.0.1:${(relay.address() as net.AddressInfo).port}`,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "transfers-")),
    DATABASE_NAME_PREFIX: prefix,
    NATS_URL: "",
    JWTSecret: "transfers-test-secret-".repeat(3),
    // Each test's uploads come from an address of its own (X-Forwarded-For's last entry).
    TRUST_PROXY: "on",
    SHORTEN_LIMIT_PER_USER: String(perUser),
    IMPORT_MAX_ROWS: String(maxRows),
    IMPORT_MAX_BYTES: String(maxBytes),
  });
  call = apiCaller(() => app.url);
  appPort = Number(new URL(app.url).port);
}, 120_000);

afterAll(async () => {
  relay?.close();
  await app?.stop();
  await dropServerDatabases(prefix);
});

let accounts = 0;
async function account() {
  accounts += 1;
  const { token, userID } = await signUpAndLogIn(call, `transfers-${accounts}@example.com`);
  return { token, userID, address: `10.43.0.${accounts}` };
}
type Account = Awaited<ReturnType<typeof account>>;

const ok = (reply: Reply, status = 200) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  return reply.body;
};

async function upload(who: Account, workspace: string, format: string, body: string | Buffer, query = ""): Promise<Reply> {
  const res = await fetch(`${app.url}/workspaces/${workspace}/imports?format=${format}${query}`, {
    method: "POST",
    headers: { authorization: `Bearer ${who.token}`, "x-forwarded-for": who.address },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

interface Progress {
  status: string;
  totalRows: number;
  rowsRead: number;
  imported: number;
  failed: number;
  errors: { line: number; message: string }[];
  nextErrorsAfter?: number;
  error?: string;
}

/** Polls the import until it ends, keeping every rowsRead seen. */
async function finished(who: Account, workspace: string, id: string, seen: number[] = []): Promise<Progress> {
  const deadline = Date.now() + 240_000;
  for (;;) {
    const progress = ok(await call("GET", `/workspaces/${workspace}/imports/${id}`, { token: who.token })) as unknown as Progress;
    seen.push(progress.rowsRead);
    if (progress.status === "done" || progress.status === "failed") return progress;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${progress.status} at ${progress.rowsRead} rows`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function importFile(who: Account, workspace: string, format: string, body: string | Buffer, query = ""): Promise<Progress> {
  const queued = ok(await upload(who, workspace, format, body, query), 202);
  return finished(who, workspace, queued.id as string);
}

async function download(who: Account, route: string): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`${app.url}${route}`, { headers: { authorization: `Bearer ${who.token}` } });
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
}

async function teamOf(owner: Account, name: string): Promise<string> {
  return ok(await call("POST", "/workspaces", { token: owner.token, body: { name } })).id as string;
}

async function join(owner: Account, workspace: string, who: Account, role: string): Promise<void> {
  const invitation = ok(await call("POST", `/workspaces/${workspace}/invitations`, { token: owner.token, body: { role } }));
  ok(await call("POST", "/invitations/accept", { token: who.token, body: { token: invitation.token } }));
}

/** The CSV export's header: the import's columns, what is only told, then the link's options. */
const exportHeader =
  "url,alias,shortUrl,title,description,tags,createdAt,expiresAt,maxClicks,clicks,hasPassword,status," +
  "domain,redirectType,forwardQuery,startsAt,fallbackUrl,allowIndexing,previewTitle,previewDescription,previewImage,rules";

const sample = (name: string) => readFileSync(path.join(import.meta.dirname, "../transfers/testdata", name));

describe("a large import", () => {
  test("100,000 rows import in the background, the progress moving, every row a link; the export streams them all", async () => {
    const owner = await account();
    const lines = ["url,title,tags,clicks,createdAt"];
    for (let i = 0; i < maxRows; i++) lines.push(`https://big.example/page/${i},Page ${i},${i % 10 === 0 ? "tenth" : ""},${i % 100 === 0 ? 7 : ""},2024-01-02T03:04:05Z`);
    const started = Date.now();
    const queued = ok(await upload(owner, owner.userID, "csv", lines.join("\n") + "\n"), 202);
    expect(queued).toMatchObject({ status: "queued", totalRows: maxRows, rowsRead: 0, format: "csv" });
    const seen: number[] = [];
    const done = await finished(owner, owner.userID, queued.id as string, seen);
    const seconds = (Date.now() - started) / 1000;
    console.log(`100,000 rows imported in ${seconds.toFixed(1)} s`);
    console.log(app.output().split("\n").filter((l) => l.includes("import done")).join("\n"));
    expect(done).toMatchObject({ status: "done", totalRows: maxRows, rowsRead: maxRows, imported: maxRows, failed: 0, errors: [] });
    // Seen between the start and the end, in order.
    expect(seen.some((n) => n > 0 && n < maxRows)).toBe(true);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);

    const tags = ok(await call("GET", `/workspaces/${owner.userID}/tags`, { token: owner.token })).tags as { name: string; links: number }[];
    expect(tags).toEqual([expect.objectContaining({ name: "tenth", links: maxRows / 10 })]);

    const exportStarted = Date.now();
    const exported = await download(owner, `/workspaces/${owner.userID}/export?format=csv`);
    console.log(`100,000 links exported in ${((Date.now() - exportStarted) / 1000).toFixed(1)} s`);
    expect(exported.status, exported.text.slice(0, 300)).toBe(200);
    const rows = exported.text.trimEnd().split("\n");
    expect(rows).toHaveLength(maxRows + 1);
    expect(rows[0]).toBe(exportHeader);
    // One batch at a time: the links' ids, and so the export's order, follow the file's.
    expect(rows[1]).toMatch(/^https:\/\/big\.example\/page\/0,[A-Za-z0-9]{6},http.*,Page 0,,tenth,2024-01-02T03:04:05\.000Z,,,7,no,active,,302,true,,,false,,,,$/);
    // The imported click total is the link's: its stats say so.
    const code = rows[1]!.split(",")[1]!;
    expect(ok(await call("GET", `/${code}/stats`))).toMatchObject({ clicks: 7 });
    // The list of imports.
    const list = ok(await call("GET", `/workspaces/${owner.userID}/imports`, { token: owner.token }));
    expect(list.imports).toEqual([expect.objectContaining({ id: queued.id, status: "done", imported: maxRows })]);
  }, 300_000);
});

describe("rows refused", () => {
  test("each of 50 bad rows is reported with its line and reason; the 100 good ones are imported, no bad row half-stored", async () => {
    const owner = await account();
    const bad = [
      ["not a url", "", "", "", "url must be an absolute URL"],
      ["ftp://files.example/x", "", "", "", "http or https"],
      ["https://ok.example/alias", "admin", "", "", 'alias "admin" is reserved'],
      ["https://ok.example/tag", "", "x".repeat(51), "", "1 to 50 characters"],
      ["https://ok.example/clicks", "", "", "many", "maxClicks must be a whole number"],
    ];
    const lines = ["url,alias,tags,maxClicks"];
    const badLines = new Map<number, string>();
    for (let i = 0; i < 150; i++) {
      if (i % 3 === 2) {
        const [url, alias, tags, maxClicks, reason] = bad[badLines.size % bad.length]!;
        badLines.set(lines.length + 1, reason!);
        lines.push(`${url},${alias},${tags},${maxClicks}`);
      } else {
        lines.push(`https://good.example/${i},,kept,`);
      }
    }
    expect(badLines.size).toBe(50);
    const done = await importFile(owner, owner.userID, "csv", lines.join("\r\n"), "");
    expect(done).toMatchObject({ status: "done", totalRows: 150, rowsRead: 150, imported: 100, failed: 50 });

    // Every error, by line, across pages of 20.
    const errors: { line: number; message: string }[] = [];
    let after = 0;
    for (;;) {
      const page = ok(await call("GET", `/workspaces/${owner.userID}/imports/${(await latestImport(owner)).id}?errorsLimit=20&errorsAfter=${after}`, { token: owner.token }));
      errors.push(...(page.errors as typeof errors));
      if (page.nextErrorsAfter === undefined) break;
      after = page.nextErrorsAfter as number;
    }
    expect(errors.map((e) => e.line)).toEqual([...badLines.keys()]);
    for (const e of errors) expect(e.message).toContain(badLines.get(e.line));

    // The row with a bad tag stored nothing: no link has its URL, and the tag "kept" is on the 100 good ones only.
    const tags = ok(await call("GET", `/workspaces/${owner.userID}/tags`, { token: owner.token })).tags;
    expect(tags).toEqual([expect.objectContaining({ name: "kept", links: 100 })]);
    const found = ok(await call("GET", "/links?q=ok.example", { token: owner.token })).links;
    expect(found).toEqual([]);
  }, 60_000);

  test("a file not of its format is refused whole, with nothing imported", async () => {
    const owner = await account();
    const reply = await upload(owner, owner.userID, "csv", "link,name\nhttps://a.example,x\n");
    expect(reply).toMatchObject({ status: 400, body: { code: "invalid_argument", message: expect.stringContaining("url") } });
    expect(await upload(owner, owner.userID, "kutt", '{"links": []}')).toMatchObject({ status: 400, body: { message: expect.stringContaining('"data" list') } });
    expect(await upload(owner, owner.userID, "xml", "<a/>")).toMatchObject({ status: 400, body: { message: expect.stringContaining("format must be one of") } });
    expect(ok(await call("GET", `/workspaces/${owner.userID}/imports`, { token: owner.token })).imports).toEqual([]);
  });
});

async function latestImport(who: Account): Promise<{ id: string }> {
  const list = ok(await call("GET", `/workspaces/${who.userID}/imports?limit=1`, { token: who.token }));
  return (list.imports as { id: string }[])[0]!;
}

interface Link {
  code: string;
  originalUrl: string;
  title?: string;
  description?: string;
  tags: string[];
  clicks: number;
  createdAt: string;
  expiresAt?: string;
  maxClicks?: number;
  hasPassword: boolean;
}
const link = async (who: Account, code: string) => ok(await call("GET", `/links/${code}`, { token: who.token })) as unknown as Link;

describe("other shorteners' exports", () => {
  test("Kutt's list of links: codes, descriptions, dates and visits kept; a password link refused", async () => {
    const owner = await account();
    const done = await importFile(owner, owner.userID, "kutt", sample("kutt.json"));
    expect(done).toMatchObject({ status: "done", totalRows: 3, imported: 2, failed: 1 });
    expect(done.errors).toEqual([{ line: 32, message: expect.stringContaining("password") }]);
    expect(await link(owner, "kutt-docs")).toMatchObject({
      originalUrl: "https://docs.kutt.example/getting-started",
      description: "Kutt's documentation",
      clicks: 17,
      createdAt: "2023-04-01T10:00:00.000Z",
    });
    expect(await link(owner, "kutt-blog")).toMatchObject({ expiresAt: "2031-01-01T00:00:00.000Z", clicks: 0 });
  });

  test("Shlink's CSV: codes, titles, tags (|), dates and visits kept", async () => {
    const owner = await account();
    expect(await importFile(owner, owner.userID, "shlink", sample("shlink.csv"))).toMatchObject({ status: "done", imported: 2, failed: 0 });
    expect(await link(owner, "shl-one")).toMatchObject({
      originalUrl: "https://shlink.example/docs",
      title: "Shlink docs",
      tags: ["docs", "shlink"],
      clicks: 120,
      createdAt: "2021-06-01T07:00:00.000Z",
    });
    expect(await link(owner, "shl-two")).toMatchObject({ originalUrl: "https://shlink.example/releases?page=2", tags: [], clicks: 0 });
  });

  test("YOURLS's links table: keywords, titles, timestamps (UTC) and clicks kept", async () => {
    const owner = await account();
    expect(await importFile(owner, owner.userID, "yourls", sample("yourls.csv"))).toMatchObject({ status: "done", imported: 2, failed: 0 });
    expect(await link(owner, "yourls-1")).toMatchObject({ originalUrl: "https://yourls.example/", title: "YOURLS home", clicks: 58, createdAt: "2015-03-10T14:22:05.000Z" });
    expect(await link(owner, "yourls-gh")).toMatchObject({ title: "YOURLS, on GitHub", clicks: 3 });
    expect(ok(await call("GET", "/yourls-1/stats"))).toMatchObject({ clicks: 58 });
  });

  test("Bitly's list of links: the code or the custom back-half, titles, tags and dates kept", async () => {
    const owner = await account();
    expect(await importFile(owner, owner.userID, "bitly", sample("bitly.json"))).toMatchObject({ status: "done", imported: 2, failed: 0 });
    expect(await link(owner, "3bTly01")).toMatchObject({ originalUrl: "https://bitly.example/pricing", title: "Pricing", tags: ["pricing", "web"], createdAt: "2020-02-03T04:05:06.000Z" });
    expect(await link(owner, "bitly-launch")).toMatchObject({ originalUrl: "https://bitly.example/launch", title: "Launch" });
  });
});

describe("export, then import into another workspace", () => {
  test("links, tags and options round-trip through JSON (a password kept for the owner) and CSV", async () => {
    const owner = await account();
    const from = await teamOf(owner, "Source");
    const made = [
      { url: "https://round.example/a", title: "A", description: "First, with \"quotes\"", tags: ["red", "Blue"], maxClicks: 50 },
      { url: "https://round.example/b", expiresAt: "2031-05-06T07:08:09.000Z", tags: ["red"] },
      { url: "https://round.example/c", password: "open sesame", title: "Locked" },
      { url: "https://round.example/d?x=1&y=2" },
    ];
    for (const body of made) ok(await call("POST", "/shorten", { token: owner.token, body: { ...body, workspaceId: from }, headers: { "x-forwarded-for": owner.address } }));
    const shape = (l: Link) => ({ url: l.originalUrl, title: l.title, description: l.description, tags: l.tags, createdAt: l.createdAt, expiresAt: l.expiresAt, maxClicks: l.maxClicks, hasPassword: l.hasPassword });
    const linksOf = async (workspace: string) =>
      ((ok(await call("GET", `/links?workspaceId=${workspace}&limit=100`, { token: owner.token })).links as Link[]).map(shape).sort((a, b) => a.url.localeCompare(b.url)));
    const before = await linksOf(from);

    const json = await download(owner, `/workspaces/${from}/export?format=json`);
    expect(json).toMatchObject({ status: 200, type: expect.stringContaining("application/json") });
    const parsed = JSON.parse(json.text) as { passwordHash?: string; hasPassword: boolean }[];
    expect(parsed).toHaveLength(4);
    expect(parsed.find((l) => l.hasPassword)?.passwordHash).toMatch(/^scrypt\$/);
    const toJson = await teamOf(owner, "From JSON");
    expect(await importFile(owner, toJson, "json", json.text, "&keepAliases=false")).toMatchObject({ status: "done", imported: 4, failed: 0 });
    expect(await linksOf(toJson)).toEqual(before);
    // The password came along: the link opens with it only.
    const locked = ((ok(await call("GET", `/links?workspaceId=${toJson}&q=Locked`, { token: owner.token })).links as Link[])[0]!).code;
    expect((await call("GET", `/${locked}`)).status).toBe(401);
    expect(await call("GET", `/${locked}`, { headers: { "x-link-password": "open sesame" } })).toMatchObject({ status: 200, body: { url: "https://round.example/c" } });

    // CSV: the same, but a password link is refused (the file says only that it has one).
    const csv = await download(owner, `/workspaces/${from}/export?format=csv`);
    expect(csv).toMatchObject({ status: 200, type: expect.stringContaining("text/csv") });
    const toCsv = await teamOf(owner, "From CSV");
    const fromCsv = await importFile(owner, toCsv, "csv", csv.text, "&keepAliases=false");
    expect(fromCsv).toMatchObject({ status: "done", imported: 3, failed: 1, errors: [{ line: expect.any(Number), message: expect.stringContaining("password") }] });
    expect(await linksOf(toCsv)).toEqual(before.filter((l) => !l.hasPassword));

    // Keeping aliases on the same instance: every code is taken, each row says so.
    const again = await importFile(owner, toCsv, "json", json.text);
    expect(again).toMatchObject({ imported: 0, failed: 4 });
    expect(again.errors.every((e) => /alias ".*" is taken/.test(e.message))).toBe(true);
  }, 60_000);

  test("a link's and a tag's analytics as CSV, per day and per dimension", async () => {
    const owner = await account();
    const code = ok(await call("POST", "/shorten", { token: owner.token, body: { url: "https://stats.example/", tags: ["promo"] }, headers: { "x-forwarded-for": owner.address } })).code as string;
    for (let i = 0; i < 3; i++) await fetch(`${app.url}/${code}`, { redirect: "manual", headers: { referer: "https://news.example/item", "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0" } });
    // Clicks are written a moment after they are answered.
    let perDay = "";
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      const file = await download(owner, `/links/${code}/analytics/export?by=day`);
      expect(file.status, file.text).toBe(200);
      perDay = file.text;
      if (perDay.includes(",3\n")) break;
    }
    const today = new Date().toISOString().slice(0, 10);
    expect(perDay.split("\n")[0]).toBe("day,humans,bots,clicks");
    expect(perDay).toMatch(new RegExp(`^${today}[^,]*,\\d,\\d,3$`, "m"));
    const perDimension = await download(owner, `/links/${code}/analytics/export?by=dimension`);
    expect(perDimension.text.split("\n")[0]).toBe("dimension,value,humans,bots,clicks");
    expect(perDimension.text).toMatch(/^referrer,news\.example,\d,\d,3$/m);
    const tagId = (ok(await call("GET", `/workspaces/${owner.userID}/tags`, { token: owner.token })).tags as { id: number }[])[0]!.id;
    const tagFile = await download(owner, `/workspaces/${owner.userID}/tags/${tagId}/analytics/export?by=dimension`);
    expect(tagFile.text).toBe(perDimension.text);
    expect((await download(owner, `/links/${code}/analytics/export?by=week`)).status).toBe(400);
  }, 60_000);
});

describe("a link's redirect options, targeting rules, preview and domain", () => {
  interface OptionsLink extends Link {
    shortUrl: string;
    domain?: string;
    redirectType: number;
    forwardQuery: boolean;
    startsAt?: string;
    fallbackUrl?: string;
    allowIndexing: boolean;
    rules: Rule[];
    preview?: { title?: string; description?: string; image?: string };
  }
  const options = (l: OptionsLink) => ({
    url: l.originalUrl,
    title: l.title,
    tags: l.tags,
    expiresAt: l.expiresAt,
    maxClicks: l.maxClicks,
    domain: l.domain,
    redirectType: l.redirectType,
    forwardQuery: l.forwardQuery,
    startsAt: l.startsAt,
    fallbackUrl: l.fallbackUrl,
    allowIndexing: l.allowIndexing,
    rules: l.rules,
    preview: l.preview,
  });
  const byUrl = (a: { url: string }, b: { url: string }) => a.url.localeCompare(b.url);
  const linksIn = async (who: Account, workspace: string) =>
    ok(await call("GET", `/links?workspaceId=${workspace}&limit=100`, { token: who.token })).links as OptionsLink[];
  const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";

  async function verifiedDomain(who: Account, workspace: string, host: string): Promise<void> {
    ok(await call("POST", `/workspaces/${workspace}/domains`, { token: who.token, body: { host } }));
    expect(ok(await call("POST", `/workspaces/${workspace}/domains/${host}/check`, { token: who.token }))).toMatchObject({ verified: true });
  }

  /** What POST /shorten answers `body` with in `workspace`: its 400's message. */
  async function shortenRefusal(who: Account, workspace: string, body: Record<string, unknown>): Promise<string> {
    const reply = await call("POST", "/shorten", { token: who.token, body: { ...body, workspaceId: workspace }, headers: { "x-forwarded-for": who.address } });
    expect(reply, JSON.stringify(reply.body)).toMatchObject({ status: 400, body: { code: "invalid_argument" } });
    return reply.body.message as string;
  }

  test("round-trip through JSON and CSV into another workspace (keepAliases=false); a domain it has not verified refuses its row; into a workspace with the domain it is kept", async () => {
    const owner = await account();
    const from = await teamOf(owner, "Options");
    const host = `go-${accounts}.transfers.example`;
    await verifiedDomain(owner, from, host);
    const made = [
      {
        url: "https://opts.example/full",
        title: "Everything",
        tags: ["opts"],
        expiresAt: "2031-05-06T07:08:09.000Z",
        maxClicks: 500,
        redirectType: 308,
        forwardQuery: false,
        startsAt: "2025-01-02T03:04:05.000Z",
        fallbackUrl: "https://opts.example/over",
        allowIndexing: true,
        rules: [
          { query: { name: "ref", value: "mail, \"quoted\"" }, url: "https://opts.example/mail" },
          { device: "ios", url: "https://opts.example/ios" },
          { countries: ["DE", "AT"], url: "https://opts.example/de" },
          { languages: ["fr"], url: "https://opts.example/fr" },
        ],
        preview: { title: "A card, with a comma", description: "Line one\nline two", image: "https://img.opts.example/card.png" },
      },
      { url: "https://opts.example/plain" },
      { url: "https://opts.example/later", startsAt: "2030-06-01T00:00:00.000Z", redirectType: 307, rules: [{ query: { name: "beta" }, url: "https://opts.example/beta" }], preview: { title: "Soon" } },
      { url: "https://opts.example/on-domain", domain: host, redirectType: 301, rules: [{ device: "android", url: "https://opts.example/android" }] },
    ];
    for (const body of made) ok(await call("POST", "/shorten", { token: owner.token, body: { ...body, workspaceId: from }, headers: { "x-forwarded-for": owner.address } }));
    const originals = await linksIn(owner, from);
    const before = originals.map(options).sort(byUrl);
    expect(before.find((l) => l.url.endsWith("/full"))!.rules).toHaveLength(4);
    const onDomain = (l: { domain?: string }) => l.domain !== undefined;
    expect(before.filter(onDomain)).toHaveLength(1);
    const domainRefusal = await shortenRefusal(owner, await teamOf(owner, "No domain"), { url: "https://opts.example/x", domain: host });

    // JSON: the fields as the Link answers them.
    const json = await download(owner, `/workspaces/${from}/export?format=json`);
    expect(json.status).toBe(200);
    expect((JSON.parse(json.text) as OptionsLink[]).map(options).sort(byUrl)).toEqual(before);
    const toJson = await teamOf(owner, "Options from JSON");
    const fromJson = await importFile(owner, toJson, "json", json.text, "&keepAliases=false");
    expect(fromJson).toMatchObject({ status: "done", imported: 3, failed: 1, errors: [{ line: expect.any(Number), message: domainRefusal }] });
    const copies = await linksIn(owner, toJson);
    expect(copies.map(options).sort(byUrl)).toEqual(before.filter((l) => !onDomain(l)));
    // The copied rules answer clicks: an iPhone goes where the copy's ios rule says.
    const full = copies.find((l) => l.originalUrl.endsWith("/full"))!;
    expect(await call("GET", `/${full.code}`, { headers: { "user-agent": iphone } })).toMatchObject({ status: 200, body: { url: "https://opts.example/ios" } });

    // CSV: the same, the new columns after the old ones.
    const csv = await download(owner, `/workspaces/${from}/export?format=csv`);
    expect(csv.text.split("\n")[0]).toBe(exportHeader);
    const toCsv = await teamOf(owner, "Options from CSV");
    const fromCsv = await importFile(owner, toCsv, "csv", csv.text, "&keepAliases=false");
    expect(fromCsv).toMatchObject({ status: "done", imported: 3, failed: 1, errors: [{ line: expect.any(Number), message: domainRefusal }] });
    expect((await linksIn(owner, toCsv)).map(options).sort(byUrl)).toEqual(before.filter((l) => !onDomain(l)));

    // A host belongs to one workspace on an instance, so only the source itself has it verified here: both files import there whole, the domain kept.
    const originalCodes = new Set(originals.map((l) => l.code));
    for (const [format, file] of [["json", json.text], ["csv", csv.text]] as const) {
      expect(await importFile(owner, from, format, file, "&keepAliases=false")).toMatchObject({ status: "done", imported: 4, failed: 0 });
      const added = (await linksIn(owner, from)).filter((l) => !originalCodes.has(l.code));
      expect(added.map(options).sort(byUrl), format).toEqual(before);
      expect(added.find(onDomain)!.shortUrl).toMatch(new RegExp(`^https?://${host.replace(/\./g, "\\.")}/${added.find(onDomain)!.code}$`));
      for (const l of added) originalCodes.add(l.code);
    }
  }, 90_000);

  test("bad values refuse their row only, by line, with POST /shorten's message; well-formed rule ids are kept", async () => {
    const owner = await account();
    const columns = ["url", "redirectType", "forwardQuery", "startsAt", "expiresAt", "fallbackUrl", "domain", "previewImage", "rules"] as const;
    type Row = Partial<Record<(typeof columns)[number], string>>;
    const kept: Row = {
      url: "https://refuse.example/kept",
      rules: JSON.stringify([
        { id: "keep-me_1", device: "ios", url: "https://refuse.example/ios" },
        { id: "bad id!", countries: ["de"], url: "https://refuse.example/de" },
        { id: "keep-me_1", languages: ["fr"], url: "https://refuse.example/fr" },
      ]),
    };
    const ws = owner.userID;
    // POST /shorten's request schema refuses a redirectType or a device outside its lists before the links service's checks run, in
    // Encore's words; an import's row reaches those checks, which say the same refusal with the allowed values.
    expect(await shortenRefusal(owner, ws, { url: "https://refuse.example/303", redirectType: 303 })).toBe(
      "unable to decode request body: redirectType: invalid type: integer `303`, expected 301, 302, 307, or 308",
    );
    expect(await shortenRefusal(owner, ws, { url: "https://refuse.example/tablet", rules: [{ device: "tablet", url: "https://refuse.example/t" }] })).toBe(
      'unable to decode request body: rules[0].device: invalid type: string "tablet", expected "ios", "android", or "desktop"',
    );
    // Each bad row with the message it must be refused with: POST /shorten's for the same value, the checks' own for those two, the import's for what only a file can hold.
    const bad: [Row, string][] = [
      [{ url: "https://refuse.example/303", redirectType: "303" }, "redirectType must be one of 301, 302, 307, 308"],
      [{ url: "https://refuse.example/tablet", rules: JSON.stringify([{ device: "tablet", url: "https://refuse.example/t" }]) }, "rules[0].device must be one of ios, android, desktop"],
      [
        { url: "https://refuse.example/country", rules: JSON.stringify([{ countries: ["D1"], url: "https://refuse.example/c" }]) },
        await shortenRefusal(owner, ws, { url: "https://refuse.example/country", rules: [{ countries: ["D1"], url: "https://refuse.example/c" }] }),
      ],
      [{ url: "https://refuse.example/domain", domain: "nowhere.transfers.example" }, await shortenRefusal(owner, ws, { url: "https://refuse.example/domain", domain: "nowhere.transfers.example" })],
      [{ url: "https://refuse.example/image", previewImage: "ftp://img.example/x.png" }, await shortenRefusal(owner, ws, { url: "https://refuse.example/image", preview: { image: "ftp://img.example/x.png" } })],
      [
        { url: "https://refuse.example/order", startsAt: "2031-01-01T00:00:00Z", expiresAt: "2030-01-01T00:00:00Z" },
        await shortenRefusal(owner, ws, { url: "https://refuse.example/order", startsAt: "2031-01-01T00:00:00Z", expiresAt: "2030-01-01T00:00:00Z" }),
      ],
      [{ url: "https://refuse.example/fallback", fallbackUrl: "not a url" }, await shortenRefusal(owner, ws, { url: "https://refuse.example/fallback", fallbackUrl: "not a url" })],
      [{ url: "https://refuse.example/json", rules: "[{" }, "rules must be a JSON list of rules, as an export writes them"],
      [{ url: "https://refuse.example/flag", forwardQuery: "maybe" }, 'forwardQuery must be true or false, got "maybe"'],
    ];
    expect(bad[3]![1]).toContain('domain "nowhere.transfers.example"');
    const rows = [kept, ...bad.map(([row]) => row)];
    const file = stringify([[...columns], ...rows.map((row) => columns.map((c) => row[c] ?? ""))]);
    const done = await importFile(owner, ws, "csv", file);
    expect(done).toMatchObject({ status: "done", imported: 1, failed: bad.length });
    // The header is line 1, the kept row line 2: no cell holds a line break.
    expect(done.errors).toEqual(bad.map(([, message], i) => ({ line: i + 3, message })));

    const [link] = await linksIn(owner, ws);
    expect(link!.originalUrl).toBe("https://refuse.example/kept");
    expect(link!.rules.map(({ id: _id, ...rule }) => rule)).toEqual([
      { device: "ios", url: "https://refuse.example/ios" },
      { countries: ["DE"], url: "https://refuse.example/de" },
      { languages: ["fr"], url: "https://refuse.example/fr" },
    ]);
    const [first, second, third] = link!.rules.map((r) => r.id);
    expect(first).toBe("keep-me_1");
    expect(second).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(third).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(new Set([first, second, third]).size).toBe(3);
  }, 60_000);

  test("the import template names the new columns, and imports as it is, its example's options with it", async () => {
    const owner = await account();
    const template = await download(owner, `/workspaces/${owner.userID}/import-template`);
    expect(template.status).toBe(200);
    expect(template.text.split("\n")[0]).toBe(
      "url,alias,title,description,tags,expiresAt,maxClicks,createdAt,clicks,password," +
        "domain,redirectType,forwardQuery,startsAt,fallbackUrl,allowIndexing,previewTitle,previewDescription,previewImage,rules",
    );
    expect(await importFile(owner, owner.userID, "csv", template.text)).toMatchObject({ status: "done", imported: 2, failed: 0 });
    const example = (await linksIn(owner, owner.userID)).find((l) => l.code === "docs-start")!;
    expect(options(example)).toMatchObject({
      redirectType: 301,
      forwardQuery: false,
      startsAt: "2024-05-02T00:00:00.000Z",
      fallbackUrl: "https://example.com/docs",
      allowIndexing: true,
      preview: { title: "Start here", image: "https://example.com/docs/start.png" },
      rules: [
        { id: expect.any(String), device: "ios", url: "https://example.com/docs/start-ios" },
        { id: expect.any(String), countries: ["DE", "AT"], url: "https://example.com/de/docs/start" },
      ],
    });
  });
});

describe("limits", () => {
  test("an import counts once against the creation limit, however many rows; files past the caps are refused whole", async () => {
    const owner = await account();
    const rows = (n: number, tag: string) => ["url", ...Array.from({ length: n }, (_, i) => `https://limits.example/${tag}/${i}`)].join("\n");
    for (let i = 0; i < perUser; i++) ok(await upload(owner, owner.userID, "csv", rows(perUser + 3, `f${i}`)), 202);
    const refused = await upload(owner, owner.userID, "csv", rows(1, "over"));
    expect(refused).toMatchObject({ status: 429, body: { code: "resource_exhausted" } });

    const other = await account();
    const tooMany = await upload(other, other.userID, "csv", rows(maxRows + 1, "many"));
    expect(tooMany).toMatchObject({ status: 400, body: { message: expect.stringContaining("IMPORT_MAX_ROWS") } });
    const tooLarge = await upload(other, other.userID, "csv", "url\n" + `https://large.example/${"x".repeat(1000)}\n`.repeat(Math.ceil(maxBytes / 1000)));
    expect(tooLarge).toMatchObject({ status: 400, body: { message: expect.stringContaining("IMPORT_MAX_BYTES") } });
    expect(ok(await call("GET", `/workspaces/${other.userID}/imports`, { token: other.token })).imports).toEqual([]);
    const found = ok(await call("GET", "/links?q=many.example", { token: other.token })).links;
    expect(found).toEqual([]);
  }, 120_000);
});

describe("an upload cut off", () => {
  test("a client gone mid-upload leaves no import and no links", async () => {
    const owner = await account();
    const url = new URL(`${app.url}/workspaces/${owner.userID}/imports?format=csv`);
    const req = http.request(url, { method: "POST", headers: { authorization: `Bearer ${owner.token}`, "x-forwarded-for": owner.address, "transfer-encoding": "chunked" } });
    req.on("error", () => {}); // the connection is cut on purpose
    req.write("url\n" + Array.from({ length: 2000 }, (_, i) => `https://cut.example/${i}`).join("\n") + "\n");
    const imports = async () => ok(await call("GET", `/workspaces/${owner.userID}/imports`, { token: owner.token })).imports as { status: string }[];
    await expect.poll(imports, { timeout: 20_000 }).toEqual([expect.objectContaining({ status: "uploading" })]);
    req.destroy();
    await expect.poll(imports, { timeout: 20_000 }).toEqual([]);
    expect(ok(await call("GET", "/links?q=cut.example", { token: owner.token })).links).toEqual([]);
  });
});

describe("who may import and export", () => {
  test("a non-member gets 404, a viewer 403 to import (but reads and exports), a key without links:write 403", async () => {
    const owner = await account();
    const viewer = await account();
    const stranger = await account();
    const team = await teamOf(owner, "Team");
    await join(owner, team, viewer, "viewer");
    const file = "url\nhttps://team.example/a\n";
    const done = await importFile(owner, team, "csv", file);
    expect(done.imported).toBe(1);
    const id = (await latestImport({ ...owner, userID: team })).id;

    for (const route of [`/workspaces/${team}/imports`, `/workspaces/${team}/imports/${id}`]) {
      expect((await call("GET", route, { token: stranger.token })).status).toBe(404);
      expect((await call("GET", route, { token: viewer.token })).status).toBe(200);
    }
    expect(await upload(stranger, team, "csv", file)).toMatchObject({ status: 404, body: { code: "not_found" } });
    expect(await upload(viewer, team, "csv", file)).toMatchObject({ status: 403, body: { code: "permission_denied" } });
    expect((await download(stranger, `/workspaces/${team}/export?format=csv`)).status).toBe(404);
    const viewerJson = await download(viewer, `/workspaces/${team}/export?format=json`);
    expect(viewerJson.status).toBe(200);
    expect(JSON.parse(viewerJson.text)).toHaveLength(1);
    expect((await call("GET", `/workspaces/${owner.userID}/imports/${id}`, { token: owner.token })).status).toBe(404);
    expect((await fetch(`${app.url}/workspaces/${team}/imports?format=csv`, { method: "POST", body: file })).status).toBe(401);

    const key = ok(await call("POST", "/me/api-keys", { token: owner.token, body: { name: "reader", scopes: ["links:read"], workspaceId: team } })).key as string;
    expect(await upload({ ...owner, token: key }, team, "csv", file)).toMatchObject({ status: 403, body: { message: expect.stringContaining("links:write") } });
    expect((await download({ ...owner, token: key }, `/workspaces/${team}/export?format=csv`)).status).toBe(200);
    const tagged = ok(await call("POST", "/shorten", { token: owner.token, body: { url: "https://team.example/t", workspaceId: team }, headers: { "x-forwarded-for": owner.address } }));
    expect(await download({ ...owner, token: key }, `/links/${tagged.code as string}/analytics/export`)).toMatchObject({ status: 403, text: expect.stringContaining("analytics:read") });

    // A key with links:write made for the workspace imports into it, and into no other.
    const writer = ok(await call("POST", "/me/api-keys", { token: owner.token, body: { name: "importer", scopes: ["links:write", "links:read"], workspaceId: team } })).key as string;
    expect(await importFile({ ...owner, token: writer }, team, "csv", "url\nhttps://team.example/by-key\n")).toMatchObject({ status: "done", imported: 1 });
    expect(await upload({ ...owner, token: writer }, owner.userID, "csv", file)).toMatchObject({ status: 403, body: { message: expect.stringContaining("another workspace") } });
  }, 60_000);
});
