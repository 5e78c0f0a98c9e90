// Encore's generated entry point (the shape of encore.gen/internal/entrypoints/combined/main.ts
// that `encore build` writes) run on this runtime: it imports encore.dev/internal/codegen/appinit,
// registers the app's handlers and calls run(), which serves them.
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { appRoot, runtimeDir } from "../../../../internal/config/app-root.ts";
import { runToEnd, startServing, userEnv } from "../../../../test/command.ts";
import { tempDataDir } from "../../../../vitest/temp-dir.ts";

const work = tempDataDir("appinit-");
const app = path.join(work, "hello-world");
const main = path.join(runtimeDir(), "cli", "main.mjs");
const entry = path.join(app, "encore.gen", "internal", "entrypoints", "combined", "main.ts");

/** An entry point in the shape Encore generates, with `routes` as its handler list. */
function writeEntry(routes: string): void {
  mkdirSync(path.dirname(entry), { recursive: true });
  writeFileSync(
    entry,
    `import { registerGateways, registerHandlers, run, type Handler } from "encore.dev/internal/codegen/appinit";
import { get as hello_getImpl0 } from "../../../../hello/hello";
import * as hello_service from "../../../../hello/encore.service";

const gateways: any[] = [];
const handlers: Handler[] = [${routes}];

registerGateways(gateways);
registerHandlers(handlers);
await run(import.meta.url);
`,
  );
}

const helloRoute = `{
  apiRoute: { service: "hello", name: "get", handler: hello_getImpl0, raw: false, streamingRequest: false, streamingResponse: false },
  endpointOptions: { expose: true, auth: false, isRaw: false, isStream: false, tags: [] },
  middlewares: hello_service.default.cfg.middlewares || [],
}`;

function startEntry() {
  // As docs/runtime.md gives the command: the loader through the package's export.
  return startServing(process.execPath, ["--import", "tsx", "--import", "encore-selfhost/loader/register.mjs", entry], app, userEnv({ PORT: "0", LOG_LEVEL: "info" }));
}

beforeAll(async () => {
  cpSync(path.join(runtimeDir(), "testdata", "apps", "hello-world"), app, { recursive: true, filter: (src) => !/[/\\](node_modules|encore\.gen|\.data)$/.test(src) });
  symlinkSync(path.join(appRoot, "node_modules"), path.join(app, "node_modules"));
  const gen = await runToEnd(process.execPath, [main, "gen"], app);
  expect(gen.code, gen.output).toBe(0);
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("Encore's generated entry point on this runtime", () => {
  test("serves the handlers it registers, not the generated map's, and stops on SIGTERM with exit code 0", async () => {
    // The app's own handler, wrapped so that the answer shows it came through registerHandlers.
    writeEntry(helloRoute.replace("handler: hello_getImpl0", 'handler: async (p: { name: string }) => ({ message: (await hello_getImpl0(p)).message + " (registered)" })'));
    const server = await startEntry();
    try {
      const res = await fetch(`${server.url}/hello/entry`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ message: "Hello entry! (registered)" });
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 120_000);

  test("refuses a handler that names no endpoint of the app, and starts nothing", async () => {
    writeEntry(helloRoute.replace('name: "get"', 'name: "nope"'));
    const server = startEntry();
    await expect(server).rejects.toMatchObject({ exitCode: 1 });
    await expect(server).rejects.toThrow(/registerHandlers: hello\.nope is not an endpoint of this app/);
  }, 120_000);
});
