import { Logger, makeWorkerUtils, run, type Runner } from "graphile-worker";
import pg from "pg";
import type { BenchMessage, QueueUnderTest } from "./queue.ts";

const silent = new Logger(() => () => {});
/** Jobs per addJobs call while preloading. */
const preloadChunk = 1000;

/**
 * Graphile Worker on database `url`, configured as its performance page is: jobs
 * fetched 500 at a time into a local queue, completions and failures batched.
 */
export async function graphileQueue(url: string, concurrency: number): Promise<QueueUnderTest> {
  // Pools of our own, ended in close(), so none outlives the run's database.
  const utilsPool = new pg.Pool({ connectionString: url, max: 10 });
  const workerPool = new pg.Pool({ connectionString: url, max: concurrency + 1 });
  // A connection ended with the run's database fails the query in flight, if any: nothing else to do.
  for (const pool of [utilsPool, workerPool]) {
    pool.on("error", () => {});
    pool.on("connect", (client) => client.on("error", () => {}));
  }
  const utils = await makeWorkerUtils({ pgPool: utilsPool, logger: silent });
  await utils.migrate();
  let runner: Runner | undefined;
  return {
    name: "Graphile Worker",
    async preload(payloads) {
      for (let i = 0; i < payloads.length; i += preloadChunk) {
        await utils.addJobs(payloads.slice(i, i + preloadChunk).map((p) => ({ identifier: "sink", payload: JSON.parse(p) as object })));
      }
    },
    async publish(payload) {
      await utils.addJob("sink", JSON.parse(payload) as object);
    },
    async consume(handler) {
      runner = await run({
        pgPool: workerPool,
        concurrency,
        noHandleSignals: true,
        logger: silent,
        taskList: { sink: (payload) => handler(payload as BenchMessage) },
        preset: { worker: { localQueue: { size: 500 }, completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
      });
    },
    async stored() {
      return utils.withPgClient(async (c) => (await c.query<{ n: number }>("SELECT count(*)::int AS n FROM graphile_worker.jobs")).rows[0]!.n);
    },
    async close() {
      await runner?.stop();
      await utils.release();
      await Promise.all([utilsPool.end(), workerPool.end()]);
    },
  };
}
