// Imports and exports over HTTP, the app as a process: a 100,000-row CSV imported in the
// background with its progress seen moving, bad rows reported by line, the four other
// shorteners' sample exports, export then import into another workspace, the limits, and
// who may do what.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiCaller, signUpAndLogIn, type Call, type Reply } from "./support/api-client.ts";
import { dropServerDatabases, startApp, type RunningApp } from "./support/app-process.ts";

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}transfers_`;
const maxRows = 100_000;
const maxBytes = 12 * 1024 * 1024;
const perUser = 5;

let app: RunningApp;
let call: Call;
beforeAll(async () => {
  app = await startApp({
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
}, 120_000);

afterAll(async () => {
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
    expect(done).toMatchObject({ status: "done", totalRows: maxRows, rowsRead: maxRows, imported: maxRows, failed: 0, errors: [] });
    // Seen between the start and the end, in order.
    expect(seen.some((n) => n > 0 && n < maxRows)).toBe(true);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);

    const tags = ok(await call("GET", `/workspaces/${owner.userID}/tags`, { token: owner.token })).tags as { name: string; links: number }[];
    expect(tags).toEqual([expect.objectContaining({ name: "tenth", links: maxRows / 10 })]);

    const exported = await download(owner, `/workspaces/${owner.userID}/export?format=csv`);
    expect(exported.status, exported.text.slice(0, 300)).toBe(200);
    const rows = exported.text.trimEnd().split("\n");
    expect(rows).toHaveLength(maxRows + 1);
    expect(rows[0]).toBe("url,alias,shortUrl,title,description,tags,createdAt,expiresAt,maxClicks,clicks,hasPassword,status");
    expect(rows[1]).toMatch(/^https:\/\/big\.example\/page\/0,[A-Za-z0-9]{6},http.*,Page 0,,tenth,2024-01-02T03:04:05\.000Z,,,7,no,active$/);
    // The imported click total is the link's: its stats say so.
    const code = rows[1]!.split(",")[1]!;
    expect(ok(await call("GET", `/${code}/stats`))).toMatchObject({ clicks: 7 });
    // The list of imports.
    const list = ok(await call("GET", `/workspaces/${owner.userID}/imports`, { token: owner.token }));
    expect(list.imports).toEqual([expect.objectContaining({ id: queued.id, status: "done", imported: maxRows })]);
  }, 300_000);
});
