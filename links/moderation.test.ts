import pg from "pg";
import { describe, expect, test } from "vitest";
import { db } from "./db";
import { banHost, bannedHostList, disableLinkForAbuse, enableLinkAfterAbuse, setAccountLinksDisabled, unbanHost } from "./moderation";
import { BannedHosts } from "./moderation/banned-hosts";
import { refuseBannedHost } from "./moderation/host-check";
import { banNotifications } from "./moderation/ban-notifications";
import { shorten } from "./shorten";

async function insertUrl(code: string, url: string, createdBy: string | null = null): Promise<void> {
  await db.exec`INSERT INTO urls (code, original_url, created_by) VALUES (${code}, ${url}, ${createdBy})`;
}

async function reasonOf(code: string): Promise<string | null> {
  const row = await db.queryRow<{ disabled_at: Date | null; disabled_reason: string | null }>`
    SELECT disabled_at, disabled_reason FROM urls WHERE code = ${code}`;
  expect(row!.disabled_at === null).toBe(row!.disabled_reason === null);
  return row!.disabled_reason;
}

describe("the host of a stored URL (migration 9's link_host)", () => {
  test.each([
    ["https://evil.example/x", "evil.example"],
    ["http://user:pw@www.evil.example.:8443/p?q", "www.evil.example"],
    ["http://[::1]:80/", "[::1]"],
    ["https://10.0.0.1", "10.0.0.1"],
    ["https://a.b.evil.example?x=1", "a.b.evil.example"],
    ["https://x.example#frag", "x.example"],
  ])("%s is %s", async (url, host) => {
    expect((await db.queryRow<{ host: string }>`SELECT link_host(${url}) AS host`)!.host).toBe(host);
  });

  test("a host is within itself and its parent domains, not within names that merely end alike", async () => {
    const within = async (host: string, domain: string) => (await db.queryRow<{ w: boolean }>`SELECT host_within(${host}, ${domain}) AS w`)!.w;
    expect([await within("evil.example", "evil.example"), await within("a.evil.example", "evil.example")]).toEqual([true, true]);
    expect([await within("notevil.example", "evil.example"), await within("evil.example.org", "evil.example")]).toEqual([false, false]);
  });
});

describe("causes of a link's disabling", () => {
  test("a link disabled with its account and by a ban redirects again only once both end, whichever ends first", async () => {
    await insertUrl("both01", "https://both.example/1", "owner-both");
    await insertUrl("both02", "https://both.example/2", "owner-both");
    expect(await setAccountLinksDisabled({ userID: "owner-both", disabled: true })).toEqual({ links: 2 });
    expect(await banHost({ host: "both.example", bannedBy: "admin" })).toEqual({ host: "both.example", links: 0 });
    expect(await reasonOf("both01")).toBe("account");

    expect(await setAccountLinksDisabled({ userID: "owner-both", disabled: false })).toEqual({ links: 0 });
    expect(await reasonOf("both01")).toBe("host"); // still banned
    await expect(enableLinkAfterAbuse({ code: "both01" })).rejects.toMatchObject({ code: "failed_precondition" });
    expect(await unbanHost({ host: "both.example" })).toEqual({ host: "both.example", links: 2 });
    expect(await reasonOf("both02")).toBeNull();
  });

  test("an unban leaves the links under another banned domain disabled", async () => {
    await insertUrl("nest01", "https://a.nest.example/");
    await banHost({ host: "nest.example", bannedBy: "admin" });
    await banHost({ host: "a.nest.example", bannedBy: "admin" });
    expect(await unbanHost({ host: "a.nest.example" })).toMatchObject({ links: 0 });
    expect(await reasonOf("nest01")).toBe("host");
    expect(await unbanHost({ host: "nest.example" })).toMatchObject({ links: 1 });
  });

  test("a code is matched in any case and answered as stored; disabling twice changes nothing more", async () => {
    await insertUrl("CaSe01", "https://case.example/");
    expect(await disableLinkForAbuse({ code: "case01" })).toEqual({ code: "CaSe01", links: 1 });
    expect(await disableLinkForAbuse({ code: "CASE01" })).toEqual({ code: "CaSe01", links: 0 });
    expect(await enableLinkAfterAbuse({ code: "case01" })).toEqual({ code: "CaSe01", links: 1 });
    expect(await enableLinkAfterAbuse({ code: "case01" })).toEqual({ code: "CaSe01", links: 0 });
  });

  test("hosts are banned as normalised, listed newest first, and refused twice", async () => {
    expect(await banHost({ host: " Bücher.Example. ", reason: "spam", bannedBy: "admin" })).toMatchObject({ host: "xn--bcher-kva.example" });
    await expect(banHost({ host: "xn--bcher-kva.example", bannedBy: "admin" })).rejects.toMatchObject({ code: "already_exists" });
    expect((await bannedHostList()).hosts[0]).toEqual({ host: "xn--bcher-kva.example", reason: "spam", bannedAt: expect.any(Date), bannedBy: "admin" });
    await expect(unbanHost({ host: "never.example" })).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("new links to banned hosts", () => {
  test("are refused once the ban commits, and allowed once it is lifted", async () => {
    await shorten({ url: "https://soon-banned.example/" }); // this instance holds its copy of the bans now
    await banHost({ host: "soon-banned.example", bannedBy: "admin" });
    await expect.poll(() => refuseBannedHost("https://www.soon-banned.example/").catch((e: Error) => e.message)).toBe(
      "links to soon-banned.example are not allowed",
    );
    await expect(shorten({ url: "https://soon-banned.example/x" })).rejects.toMatchObject({ code: "invalid_argument" });
    await unbanHost({ host: "soon-banned.example" });
    await expect.poll(() => refuseBannedHost("https://soon-banned.example/")).toBeUndefined();
  });

  test("a link's target, fallback and rules are checked together; the refusal names the field, but for the target", async () => {
    await banHost({ host: "fields-banned.example", bannedBy: "admin" });
    const fine = "https://fine.example/";
    const banned = "https://www.fields-banned.example/";
    const refusal = (item: Parameters<typeof shorten>[0]) => shorten(item).then(() => "stored", (e: Error) => e.message);
    // The ban reaches this instance's copy through a notification: a while on a busy machine.
    await expect.poll(() => refusal({ url: banned }), { timeout: 20_000 }).toBe("links to fields-banned.example are not allowed");
    expect(await refusal({ url: fine, fallbackUrl: banned })).toBe("fallbackUrl: links to fields-banned.example are not allowed");
    const rules = [{ device: "ios" as const, url: fine }, { query: { name: "src", value: "qr" }, url: banned }];
    expect(await refusal({ url: fine, rules })).toBe("rules[1].url: links to fields-banned.example are not allowed");
    expect(await refusal({ url: banned, fallbackUrl: banned, rules })).toBe("links to fields-banned.example are not allowed"); // the first field refused
    expect(await refusal({ url: fine, fallbackUrl: fine, rules: [{ device: "ios", url: fine }] })).toBe("stored");
    await unbanHost({ host: "fields-banned.example" });
    await expect.poll(() => refusal({ url: banned })).toBe("stored"); // heard: the next test starts from a current copy
  });

  test("a ban made while the listening connection was lost is in force once it is back", async () => {
    await refuseBannedHost("https://warm.example/"); // listening, the copy read
    const sql = new pg.Client({ connectionString: db.connectionString });
    await sql.connect();
    try {
      // A ban whose notification never reaches anyone (triggers off in this session), as if made while the connection was down.
      await sql.query("SET session_replication_role = replica");
      await sql.query("INSERT INTO banned_hosts (host, banned_by) VALUES ('missed.example', 'admin')");
      await sql.query("RESET session_replication_role");
      expect(await refuseBannedHost("https://missed.example/")).toBeUndefined(); // stale: nothing told this instance

      await sql.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '%LISTEN url_banned_hosts;%'",
      );
      await expect.poll(() => banNotifications.listening).toBe(false);
      await expect.poll(() => banNotifications.listening, { timeout: 5000 }).toBe(true);
      await expect(refuseBannedHost("https://missed.example/")).rejects.toMatchObject({ message: "links to missed.example are not allowed" });
    } finally {
      await sql.end();
    }
  });

  test("the hosts of one link are looked up in one read, even while every check reads the table", async () => {
    let reads = 0;
    const hosts = new BannedHosts(async () => (reads++, ["evil.example"]));
    expect(await hosts.entriesFor(["fine.example", "www.evil.example", "evil.example.org"])).toEqual([undefined, "evil.example", undefined]);
    expect(reads).toBe(1);
  });

  test("the copy is read once while notifications arrive, and at every check while they may not", async () => {
    let reads = 0;
    const hosts = new BannedHosts(async () => (reads++, ["evil.example"]));
    expect(await hosts.entryFor("a.evil.example")).toBe("evil.example");
    expect(await hosts.entryFor("notevil.example")).toBeUndefined();
    expect(reads).toBe(2); // not listening: no copy kept

    hosts.up();
    await Promise.all([hosts.entryFor("x.example"), hosts.entryFor("y.example")]);
    await hosts.entryFor("z.example");
    expect(reads).toBe(3); // one read, shared, then kept
    hosts.notified();
    await hosts.entryFor("x.example");
    expect(reads).toBe(4);

    // A read overtaken by a change is not kept: it may have missed it.
    hosts.notified();
    const overtaken = hosts.entryFor("x.example");
    hosts.notified();
    await overtaken;
    await hosts.entryFor("x.example");
    await hosts.entryFor("x.example");
    expect(reads).toBe(6);

    hosts.down(); // from now on a change may go unheard
    await hosts.entryFor("x.example");
    expect(reads).toBe(7);
  });
});
