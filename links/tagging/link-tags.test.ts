// A tag deleted while a link is being stored with it: the link is stored without it, never
// refused, and its batch (other people's links) stored too. The delete is held open in a
// transaction of its own until the insert is seen waiting on it, then committed.
import { randomUUID } from "node:crypto";
import { expect, test } from "vitest";
import { db } from "../db";
import { plainLink, urlStore } from "../outbox/url-store";

const code = () => `tg${randomUUID().slice(0, 8)}`;

async function newTag(workspaceId: string, name: string): Promise<number> {
  return (await db.queryRow<{ id: number }>`INSERT INTO tags (workspace_id, name) VALUES (${workspaceId}, ${name}) RETURNING id`)!.id;
}
const tagsOf = async (c: string) =>
  (await db.queryAll<{ name: string }>`SELECT t.name FROM link_tags lt JOIN tags t ON t.id = lt.tag_id JOIN urls u ON u.id = lt.link_id WHERE u.code = ${c}`).map(
    (r) => r.name,
  );

test("a tag deleted before the insert is left out of the link; the link is stored", async () => {
  const workspaceId = randomUUID();
  const [gone, kept] = [await newTag(workspaceId, "gone"), await newTag(workspaceId, "kept")];
  await db.exec`DELETE FROM tags WHERE id = ${gone}`;
  const c = code();
  expect(await urlStore.insert(c, "https://tags.example/x", { ...plainLink, workspaceId, tagIds: [gone, kept] })).toBe(true);
  expect(await tagsOf(c)).toEqual(["kept"]);
});

test("a tag deleted while the insert runs: the insert waits for the delete, then leaves the tag out", async () => {
  const workspaceId = randomUUID();
  const tag = await newTag(workspaceId, "racing");
  await using deleting = await db.begin();
  await deleting.exec`DELETE FROM tags WHERE id = ${tag}`;
  const c = code();
  const stored = urlStore.insert(c, "https://tags.example/race", { ...plainLink, workspaceId, tagIds: [tag] });
  // The insert's FOR KEY SHARE read of the tag waits for the open delete. The statement is
  // known by its start: pg_stat_activity keeps a query's first 1024 bytes only.
  await expect
    .poll(async () => (await db.queryRow<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'WITH stored AS (%INSERT INTO urls%'`)!.n)
    .toBe(1);
  await deleting.commit();
  expect(await stored).toBe(true);
  expect(await tagsOf(c)).toEqual([]);
  expect(await db.queryRow`SELECT 1 AS one FROM urls WHERE code = ${c}`).not.toBeNull();
});
