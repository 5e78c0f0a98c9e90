import { rootLogger } from "../../log/root.ts";
import { stopCron } from "../../cron/mod.ts";
import { stopCache } from "../../cache/mod.ts";
import { stopObjects } from "../../objects/mod.ts";
import { stopPubSub } from "../../pubsub/mod.ts";
import { disconnectServer } from "../../sql/databases.ts";
import { stopTracing } from "../../tracing/mod.ts";

/** How long a stop may take before the process exits anyway. */
export const shutdownTimeoutMs = 10_000;

let signalled = false;

/** Whether a stop signal has arrived: from then on the health checks answer 503 (runtime-routes/health.ts). */
export function stopSignalled(): boolean {
  return signalled;
}

/** The signals that stop the server. */
const stopSignals: readonly NodeJS.Signals[] = ["SIGTERM", "SIGINT"];

/**
 * Resolves `delayMs` after the first SIGTERM or SIGINT, from which point the process exits
 * within delayMs + shutdownTimeoutMs whatever happens. During the delay (SHUTDOWN_DELAY_MS)
 * the server serves as before, but its health checks answer 503, so load balancers take it out
 * of rotation while it still accepts what they send meanwhile; then the stop proper begins.
 * A signal during start-up is acted on once start-up has finished, so nothing is left
 * half-opened.
 *
 * The listeners stay for the life of the process, and later signals are only logged: with
 * no listener left, Node would let a signal end the process at once (exit 143), cutting the
 * stop short. That is what a second Ctrl-C, `run` passing SIGTERM on after the terminal's
 * SIGINT, or a library's own stop would do: Apollo Server, on SIGTERM, stops itself, removes
 * its listener and sends the signal to the process again. A library removing every listener
 * of the signal (removeAllListeners) gets this one back at once.
 */
export function watchStopSignals(delayMs = 0): Promise<void> {
  return new Promise((resolve) => {
    let received: NodeJS.Signals | null = null;
    const onSignal = (signal: NodeJS.Signals) => {
      if (received !== null) {
        rootLogger().info({ signal, stopping: received }, "already stopping; the signal changes nothing");
        return;
      }
      received = signal;
      signalled = true;
      rootLogger().info({ signal, ...(delayMs > 0 && { acceptingForMs: delayMs }) }, "shutting down");
      const timer = setTimeout(() => {
        rootLogger().error(`shutdown took longer than ${shutdownTimeoutMs} ms; exiting`);
        process.exit(1);
      }, delayMs + shutdownTimeoutMs);
      timer.unref();
      if (delayMs === 0) resolve();
      else setTimeout(resolve, delayMs);
    };
    for (const signal of stopSignals) process.on(signal, onSignal);
    process.on("removeListener", (event: string | symbol, listener: unknown) => {
      if (listener === onSignal && stopSignals.includes(event as NodeJS.Signals)) process.on(event, onSignal);
    });
  });
}

/**
 * Stop accepting (`closeServer`: in-flight requests finish), let cron runs and pub/sub
 * deliveries finish, export the spans still waiting for the OTLP collector, close object
 * storage and the databases after the last write (while the app retries queries that
 * could not reach the server, up to 9 s after the stop began: trackInFlight),
 * give the app's own pools their grace period, stop the embedded cluster unless
 * another process uses it, and exit: 0 (logging "stopped"), or 1 when a step failed.
 *
 * The exit is explicit: the app's own handles (a pool it never ends, a timer) must
 * not keep a stopped server running until the timeout. And while stopping, an error
 * the app leaves unhandled (a query of its own pool failing as its connection is
 * ended) is logged rather than crashing the stop half-way.
 */
export async function stopAndExit(closeServer: () => Promise<void>): Promise<never> {
  const log = rootLogger();
  const logAppFailure = (err: unknown) => log.warn({ err }, "an error the app left unhandled while stopping; logged, the stop goes on");
  process.on("unhandledRejection", logAppFailure);
  process.on("uncaughtException", logAppFailure);
  let code = 0;
  // An app retrying a write the database refused may keep it open until shortly
  // before the hard timeout, leaving time to close it and exit.
  const retryUntil = Date.now() + shutdownTimeoutMs - appRetryMarginMs;
  try {
    await closeServer();
    await stopCron(shutdownTimeoutMs / 4);
    await stopPubSub(shutdownTimeoutMs / 4);
    // A collector out of reach must not hold the stop up: what it has not taken by then is lost.
    await stopTracing(shutdownTimeoutMs / 10);
    await stopObjects();
    await stopCache();
    await disconnectServer(appPoolsGraceMs, { retryUntil });
  } catch (err) {
    log.error({ err }, "shutdown failed");
    code = 1;
  }
  if (code === 0) log.info("stopped");
  process.exit(code);
}

/** Time kept, after the app's last retry at the latest, to close the databases and exit. */
const appRetryMarginMs = shutdownTimeoutMs / 10;

/** How long the app's own queries in progress may go on once the runtime's databases are closed. */
const appPoolsGraceMs = shutdownTimeoutMs / 4;
