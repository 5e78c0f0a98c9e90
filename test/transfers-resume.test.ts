// An import whose process is killed mid-way resumes when the app starts again: the topic
// delivers the job again (the dead instance's lease runs out), the new run starts after the
// recorded progress, and every row becomes exactly one link.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { apiCaller, signUpAndLogIn } from "./support/api-client.ts";
import { dropServerDatabases, startApp, type RunningApp } from "./support/app-process.ts";

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}transfers_resume_`;
const env = {
  DATA_DIR: mkdtempSync(path.join(tmpdir(), "transfers-resume-")),
  DATABASE_NAME_PREFIX: prefix,
  NATS_URL: "",
  JWTSecret: "transfers-resume-test-secret-".repeat(2),
};
const rows = 60_000;

let app: RunningApp | undefined;
afterAll(async () => {
  await app?.stop();
  await dropServerDatabases(prefix);
});

interface Progress {
  status: string;
  rowsRead: number;
  imported: number;
  failed: number;
}

test("a killed import resumes from its progress and imports every row once", async () => {
  app = await startApp(env);
  let call = apiCaller(() => app!.url);
  const { token, userID } = await signUpAndLogIn(call, "resume@example.com");
  const lines = ["url,tags"];
  for (let i = 0; i < rows; i++) lines.push(`https://resume.example/${i},${i % 10 === 0 ? "tenth" : ""}`);
  const res = await fetch(`${app.url}/workspaces/${userID}/imports?format=csv`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: lines.join("\n") });
  expect(res.status).toBe(202);
  const { id } = (await res.json()) as { id: string };
  const progress = async () => (await call("GET", `/workspaces/${userID}/imports/${id}`, { token })).body as unknown as Progress;

  // Killed once some batches are recorded, well before the end.
  let before: Progress;
  for (;;) {
    before = await progress();
    if (before.rowsRead >= 5_000) break;
    expect(before.status).not.toBe("done");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await app.stop("SIGKILL");
  app = await startApp(env);
  call = apiCaller(() => app!.url);
  const after = await progress();
  expect(after.rowsRead).toBeGreaterThanOrEqual(before.rowsRead);
  expect(after.status).not.toBe("done");

  let done: Progress;
  for (const deadline = Date.now() + 180_000; ; ) {
    done = await progress();
    if (done.status === "done" || done.status === "failed") break;
    expect(Date.now()).toBeLessThan(deadline);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(done).toMatchObject({ status: "done", rowsRead: rows, imported: rows, failed: 0 });
  // Each row once: a batch stored before the kill but not recorded was not stored again.
  const tags = (await call("GET", `/workspaces/${userID}/tags`, { token })).body.tags as { name: string; links: number }[];
  expect(tags).toEqual([expect.objectContaining({ name: "tenth", links: rows / 10 })]);
  const exported = await fetch(`${app.url}/workspaces/${userID}/export?format=csv`, { headers: { authorization: `Bearer ${token}` } });
  expect((await exported.text()).trimEnd().split("\n")).toHaveLength(rows + 1);
}, 300_000);
