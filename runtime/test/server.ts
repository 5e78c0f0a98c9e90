import type { FastifyInstance } from "fastify";
import { config } from "../internal/config/mod.ts";
import { loadAuthHandler, loadEndpoints } from "../internal/registry/endpoints.ts";
import { buildHttpServer } from "../internal/server/http-server.ts";
import type { DevCalls } from "../internal/server/runtime-routes/dev-calls.ts";

export interface TestServer {
  /** Base URL, such as http://127.0.0.1:39123 */
  readonly url: string;
  readonly app: FastifyInstance;
  close(): Promise<void>;
}

/**
 * The app's real HTTP server (its auth handler included) on a free loopback port, on this
 * test file's databases; with `devCalls`, as the development dashboard has it (dev-calls.ts).
 */
export async function startTestServer(options: { devCalls?: DevCalls } = {}): Promise<TestServer> {
  const app = await buildHttpServer((await loadEndpoints()).values(), config(), { auth: await loadAuthHandler(), devCalls: options.devCalls ?? null });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  if (typeof address !== "object" || !address) throw new Error("server has no TCP address");
  return { url: `http://127.0.0.1:${address.port}`, app, close: () => app.close() };
}
