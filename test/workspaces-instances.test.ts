// Two instances of the app on one database, as behind a load balancer: a team's member works
// through one while the owner manages the team through the other. A role is read from the
// database at every request, so a change made through one instance holds on the other from
// the very next request: no instance keeps a member's access after a removal or a demotion.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startTwoInstances, type RunningApp, type TwoInstances } from "./support/app-process.ts";

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}teams_`;
const env = () => ({
  DATA_DIR: mkdtempSync(path.join(tmpdir(), "workspaces-")),
  DATABASE_NAME_PREFIX: prefix,
  NATS_URL: "",
  // One JWT key for both, as in production: a token from A is good on B.
  JWTSecret: "a shared secret for both instances, long enough",
});

let a: RunningApp;
let b: RunningApp;
let instances: TwoInstances | undefined;

beforeAll(async () => {
  instances = await startTwoInstances(env, "workspaces");
  ({ a, b } = instances);
}, 120_000);

afterAll(async () => {
  await instances?.close();
});

async function send(app: RunningApp, method: string, route: string, token?: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${app.url}${route}`, {
    method,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

let accounts = 0;
/** A new account signed up and logged in on A: its id and token, good on both. */
async function account(): Promise<{ id: string; token: string }> {
  const email = `team-instances${++accounts}@example.com`;
  const password = "a password for both";
  const { body } = await send(a, "POST", "/users", undefined, { email, name: "Teammate", password, age: 30 });
  const { token } = (await send(a, "POST", "/auth/login", undefined, { email, password })).body as { token: string };
  return { id: body.id as string, token };
}

/** Both instances' answers to the same request, sent at once. */
async function onBoth(method: string, route: string, token: string, body?: unknown): Promise<[number, number]> {
  const [onA, onB] = await Promise.all([send(a, method, route, token, body), send(b, method, route, token, body)]);
  return [onA.status, onB.status];
}

test("a member removed through A loses the team's links on A and on B at once", async () => {
  const [owner, member] = [await account(), await account()];
  const ws = (await send(a, "POST", "/workspaces", owner.token, { name: "Both" })).body as { id: string };
  const { token } = (await send(a, "POST", `/workspaces/${ws.id}/invitations`, owner.token, { role: "member" })).body as { token: string };
  expect((await send(b, "POST", "/invitations/accept", member.token, { token })).status).toBe(200);

  const created = await send(b, "POST", "/shorten", member.token, { url: "https://team.example/both", workspaceId: ws.id });
  expect(created.status).toBe(200);
  const code = created.body.code as string;
  expect(await onBoth("GET", `/links/${code}`, member.token)).toEqual([200, 200]);
  expect(await onBoth("GET", `/links?workspaceId=${ws.id}`, member.token)).toEqual([200, 200]);

  expect((await send(a, "DELETE", `/workspaces/${ws.id}/members/${member.id}`, owner.token)).status).toBe(200);
  expect(await onBoth("GET", `/links/${code}`, member.token)).toEqual([404, 404]);
  expect(await onBoth("GET", `/links?workspaceId=${ws.id}`, member.token)).toEqual([404, 404]);
  expect(await onBoth("PATCH", `/links/${code}`, member.token, { title: "still mine?" })).toEqual([404, 404]);
  expect(await onBoth("GET", `/links/${code}`, owner.token)).toEqual([200, 200]);
});

test("a member made a viewer through B can read on A but no longer change, from the next request", async () => {
  const [owner, member] = [await account(), await account()];
  const ws = (await send(b, "POST", "/workspaces", owner.token, { name: "Demoted" })).body as { id: string };
  const { token } = (await send(b, "POST", `/workspaces/${ws.id}/invitations`, owner.token, { role: "member" })).body as { token: string };
  expect((await send(a, "POST", "/invitations/accept", member.token, { token })).status).toBe(200);
  const code = (await send(a, "POST", "/shorten", member.token, { url: "https://team.example/demoted", workspaceId: ws.id })).body.code as string;
  expect(await onBoth("PATCH", `/links/${code}`, member.token, { title: "a member's edit" })).toEqual([200, 200]);

  expect((await send(b, "PATCH", `/workspaces/${ws.id}/members/${member.id}`, owner.token, { role: "viewer" })).status).toBe(200);
  expect(await onBoth("PATCH", `/links/${code}`, member.token, { title: "a viewer's edit" })).toEqual([403, 403]);
  expect(await onBoth("GET", `/links/${code}`, member.token)).toEqual([200, 200]);
});
