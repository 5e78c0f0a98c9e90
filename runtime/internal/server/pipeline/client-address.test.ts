// The warning when requests carry X-Forwarded-For while TRUST_PROXY is off: once, at the
// first such request, over real HTTP connections.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { rootLogger } from "../../log/root.ts";
import { settleForwardedFor } from "./client-address.ts";

let server: Server;
let url: string;
let trustProxy = false;
beforeAll(async () => {
  server = createServer((req, res) => {
    settleForwardedFor(req, trustProxy);
    settleForwardedFor(req, trustProxy); // as when the auth step and the endpoint both read it
    res.end(String(req.headers["x-forwarded-for"]));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function get(headers: Record<string, string> = {}): Promise<string> {
  return (await fetch(url, { headers })).text();
}

test("said once, at the first request that has the header while TRUST_PROXY is off, naming TRUST_PROXY", async () => {
  const warn = vi.spyOn(rootLogger(), "warn");
  trustProxy = true;
  expect(await get({ "X-Forwarded-For": "203.0.113.1" })).toBe("203.0.113.1");
  trustProxy = false;
  expect(await get()).toBe("127.0.0.1");
  expect(warn).not.toHaveBeenCalled(); // a declared proxy, or no header: nothing to say

  expect(await get({ "X-Forwarded-For": "203.0.113.1" })).toBe("127.0.0.1");
  expect(warn).toHaveBeenCalledTimes(1);
  expect(warn.mock.calls[0]![1]).toMatch(/X-Forwarded-For header while TRUST_PROXY is off.*set TRUST_PROXY=on/);

  await get({ "x-forwarded-for": "198.51.100.2" });
  await get({ "X-FORWARDED-FOR": "198.51.100.3" });
  expect(warn).toHaveBeenCalledTimes(1);
});
