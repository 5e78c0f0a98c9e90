// The image `encore-selfhost build` writes a Dockerfile for, as a team runs it: two
// replicas behind a reverse proxy, on the machine's PostgreSQL, NATS and Redis, sharing one
// volume for objects. What a user sees of it (the page, shortening, redirects, a click's
// country, QR codes from either replica) and what it promises (non-root, a health check,
// a stop that loses nothing, no objects in the container's own filesystem) are checked here.
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { dropDatabasesWithPrefix } from "../../runtime/test/databases.ts";
import { createVolume, docker, logsOf, removeAll, startReplica, stopReplica, untilReady, type Replica } from "./support/docker.ts";
import { baseImage } from "./support/images.ts";
import { startProxy, type Proxy } from "./support/nginx.ts";
import { freePort, replicaEnv, services } from "./support/setting.ts";

const { current } = inject("dockerImages");
const s = services();
const prefix = "docker_image_";
const volume = "url-shortener-test-image-data";
const names = ["url-shortener-test-a", "url-shortener-test-b", "url-shortener-test-refused"];
const chrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36";

let proxy: Proxy;
let a: Replica;
let b: Replica;
let env: Record<string, string>;

beforeAll(async () => {
  await removeAll(names, [volume]);
  await dropDatabasesWithPrefix(s.databaseUrl, prefix);
  await createVolume(volume, current);
  const [proxyPort, aPort, bPort] = [await freePort(), await freePort(), await freePort()];
  env = replicaEnv(s, prefix, `http://127.0.0.1:${proxyPort}`);
  // One at a time: the first migrates, the second finds the databases ready.
  a = await startReplica({ image: current, name: names[0]!, hostname: "replica-a", port: aPort, volume, env });
  b = await startReplica({ image: current, name: names[1]!, hostname: "replica-b", port: bPort, volume, env });
  proxy = await startProxy(proxyPort, [aPort, bPort]);
}, 180_000);

afterAll(async () => {
  await proxy?.stop();
  await removeAll(names, [volume]);
  await dropDatabasesWithPrefix(s.databaseUrl, prefix);
});

async function shorten(at: string, url: string): Promise<{ code: string; qrCodeUrl: string }> {
  const res = await fetch(`${at}/shorten`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url }) });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { code: string; qrCodeUrl: string };
}

async function clicksOf(at: string, code: string): Promise<number> {
  const res = await fetch(`${at}/${code}/stats`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { clicks: number }).clicks;
}

describe("the image", () => {
  test("runs as the base image's node user, with a health check on /healthz, in production mode", async () => {
    const config = JSON.parse(await docker("image", "inspect", "--format", "{{json .Config}}", current)) as {
      User: string;
      Healthcheck?: { Test: string[] };
      Env: string[];
    };
    expect(config.User).toBe("node");
    expect(config.Healthcheck?.Test).toEqual(["CMD", "node", "healthcheck.mjs"]);
    expect(config.Env).toContain("NODE_ENV=production");
    expect(await docker("exec", a.name, "id", "-un")).toBe("node");
    // The health check itself, as Docker runs it, against a ready replica.
    await expect(docker("exec", a.name, "node", "healthcheck.mjs")).resolves.toBe("");
  });

  test("adds the app's files and production dependencies to the base and keeps no npm cache", async () => {
    const size = async (image: string) => Number(await docker("image", "inspect", "--format", "{{.Size}}", image));
    const added = (await size(current)) - (await size(baseImage));
    console.log(`image: ${(added / 1e6).toFixed(0)} MB over ${baseImage}`);
    expect(added).toBeLessThan(150e6);
    // npm's download cache stays in the build's first stage.
    await expect(docker("exec", "--user", "root", a.name, "sh", "-c", "ls -d /root/.npm /home/node/.npm 2>/dev/null | wc -l")).resolves.toBe("0");
  });

  test("refuses to start in production with objects in the container's own filesystem, naming what to set", async () => {
    const withoutDataDir = Object.entries({ ...env, PORT: String(await freePort()) }).flatMap(([k, v]) => ["--env", `${k}=${v}`]);
    await docker("run", "--name", names[2]!, "--network", "host", ...withoutDataDir, current).catch(() => "");
    expect(await docker("inspect", "--format", "{{.State.ExitCode}}", names[2]!)).toBe("1");
    const log = await logsOf(names[2]!);
    expect(log).toMatch(/DATA_DIR must be set in production/);
    expect(log).toMatch(/OBJECTS_PROVIDER=s3/);
  });
});

describe("two replicas behind the proxy", () => {
  test("serve the web page and shorten; a click through the proxy is recorded with its country", async () => {
    const page = await fetch(`${proxy.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<html/i);

    const { code } = await shorten(proxy.url, "https://example.com/docker/country");
    const click = await fetch(`${proxy.url}/${code}`, { redirect: "manual", headers: { "user-agent": chrome, accept: "text/html", "x-forwarded-for": "8.8.8.8" } });
    expect(click.status).toBe(302);
    expect(click.headers.get("location")).toBe("https://example.com/docker/country");

    // The click may have been answered by either replica: each writes its clicks within 100 ms.
    // Its stats count it at once (a replica adds the clicks it holds); analytics once written.
    await expect.poll(() => clicksOf(proxy.url, code), { timeout: 5000 }).toBe(1);
    const countries = async () =>
      ((await (await fetch(`${proxy.url}/${code}/analytics`)).json()) as { countries: { top: { value: string; humans: number }[] } }).countries.top;
    await expect.poll(countries, { timeout: 5000 }).toEqual([{ value: "US", humans: 1, bots: 0 }]);
  });

  test("each serves the QR codes the other made", async () => {
    const fromA = await shorten(a.url, "https://example.com/docker/qr-a");
    const fromB = await shorten(b.url, "https://example.com/docker/qr-b");
    for (const [made, other] of [[fromA, b], [fromB, a]] as const) {
      const res = await fetch(`${other.url}${new URL(made.qrCodeUrl).pathname}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
  });

  test("stopped and started again, they lose nothing: links, clicks and QR codes", async () => {
    const { code, qrCodeUrl } = await shorten(proxy.url, "https://example.com/docker/restart");
    for (let i = 0; i < 20; i++) expect((await fetch(`${proxy.url}/${code}`, { redirect: "manual" })).status).toBe(200);
    // Straight to the stop: clicks still in a replica's memory are written by its SIGTERM.
    expect(await stopReplica(a.name)).toBe(0);
    expect(await stopReplica(b.name)).toBe(0);
    await docker("start", a.name, b.name);
    await untilReady(a);
    await untilReady(b);
    expect(await clicksOf(a.url, code)).toBe(20);
    expect(await clicksOf(b.url, code)).toBe(20);
    expect((await fetch(`${b.url}${new URL(qrCodeUrl).pathname}`)).status).toBe(200);
    const again = await fetch(`${proxy.url}/${code}`, { redirect: "manual", headers: { accept: "text/html", "user-agent": chrome } });
    expect(again.headers.get("location")).toBe("https://example.com/docker/restart");
  }, 120_000);
});
