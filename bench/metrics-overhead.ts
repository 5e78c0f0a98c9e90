// node --import tsx bench/metrics-overhead.ts: what metrics cost the raw fast lane, measured
// on two servers in one child process, one compiled with metrics off and one with them on,
// loaded in turn (the order alternating each round) so that both see the same machine.
// Reports the median over rounds of requests per second and of the server process's CPU time
// per request: on a shared host the throughput swings with the neighbours, the CPU time per
// request much less.
//
//   BENCH_SECONDS (3)       length of each measurement
//   BENCH_ROUNDS (6)        rounds; each serves both servers
//   BENCH_CONNECTIONS (50)  concurrent connections
import { fork, type ChildProcess } from "node:child_process";
import type { IncomingMessage, ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import { config } from "../runtime/internal/config/mod.ts";
import type { EndpointMeta } from "../runtime/internal/meta/types.ts";
import { startMetrics } from "../runtime/internal/metrics/mod.ts";
import type { Endpoint } from "../runtime/internal/registry/endpoints.ts";
import { buildHttpServer } from "../runtime/internal/server/http-server.ts";
import { generatorName, runLoad } from "./load.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const rounds = Number(process.env.BENCH_ROUNDS ?? 6);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

// The short-link redirect's cached answer: a prepared body, written at once (url/redirect.ts).
const body = JSON.stringify({ url: "https://example.com/a/long/target/path" });
const meta: EndpointMeta = {
  service: "url", name: "resolve", kind: "raw", file: "url/redirect.ts", line: 1, doc: null, expose: true, auth: false,
  methods: ["GET", "HEAD"], path: "/:code", pathParams: [{ name: "code", wildcard: false }], tags: [], sensitive: false,
  request: null, response: null,
};
const resolve: Endpoint = {
  meta,
  handler: (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
    res.end(body);
  },
};

async function serve(): Promise<string> {
  const server = await buildHttpServer([resolve], { ...config(), metrics: { port: null, token: "bench-token-0123456789" } });
  await server.listen({ host: "127.0.0.1", port: 0 });
  return `http://127.0.0.1:${(server.server.address() as { port: number }).port}`;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The child: both servers, their URLs sent once listening, its CPU time sent when asked. */
async function serveBoth(): Promise<void> {
  const off = await serve(); // compiled before metrics start: no metrics code in its routes
  await startMetrics({ runningPubSub: () => undefined }); // no pub/sub in this process
  const on = await serve();
  process.on("message", () => process.send!({ cpu: process.cpuUsage() }));
  process.send!({ off, on });
}

function reply<T>(child: ChildProcess, ask: boolean): Promise<T> {
  return new Promise((resolve) => {
    child.once("message", (m) => resolve(m as T));
    if (ask) child.send("cpu");
  });
}

async function main(): Promise<void> {
  // wrk runs synchronously here: the servers must be in another process to answer it.
  const child = fork(fileURLToPath(import.meta.url), [], { env: { ...process.env, METRICS_OVERHEAD_SERVER: "1" }, execArgv: ["--import", "tsx"] });
  const urls = await reply<{ off: string; on: string }>(child, false);
  const cpuNow = async () => {
    const { cpu } = await reply<{ cpu: NodeJS.CpuUsage }>(child, true);
    return cpu.user + cpu.system;
  };
  const figures = { off: { rps: [] as number[], cpu: [] as number[] }, on: { rps: [] as number[], cpu: [] as number[] } };
  console.log(`load generator: ${generatorName()}, ${connections} connections, ${rounds} rounds of ${seconds} s per server`);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (["off", "on"] as const) : (["on", "off"] as const);
    for (const which of order) {
      const before = await cpuNow();
      const result = await runLoad(urls[which], { method: "GET", path: "/abc123" }, { connections, seconds });
      const perRequest = ((await cpuNow()) - before) / Math.max(result.ok, 1);
      figures[which].rps.push(result.rps);
      figures[which].cpu.push(perRequest);
      console.log(`round ${round + 1} metrics ${which}: ${Math.round(result.rps)} rps, ${perRequest.toFixed(2)} µs CPU per request`);
    }
  }
  child.kill();
  const rps = { off: median(figures.off.rps), on: median(figures.on.rps) };
  const cpu = { off: median(figures.off.cpu), on: median(figures.on.cpu) };
  console.log("\n| Metrics | rps (median) | µs CPU per request (median) |\n|---|---:|---:|");
  console.log(`| off | ${Math.round(rps.off)} | ${cpu.off.toFixed(2)} |`);
  console.log(`| on | ${Math.round(rps.on)} | ${cpu.on.toFixed(2)} |`);
  console.log(`on/off: ${(rps.on / rps.off).toFixed(3)} of the throughput, ${(cpu.on - cpu.off).toFixed(2)} µs CPU more per request`);
}

if (process.env.METRICS_OVERHEAD_SERVER === "1") await serveBoth();
else await main();
