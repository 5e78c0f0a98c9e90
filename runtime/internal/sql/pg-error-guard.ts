import type { EventEmitter } from "node:events";
import { createRequire } from "node:module";
import path from "node:path";
import pg from "pg";

/** Told of each "error" event nobody listened to: the error, and "pg.Client" or "pg.Pool". */
export type UnheardErrorReport = (err: unknown, emitter: string) => void;

type Emit = EventEmitter["emit"];

let report: UnheardErrorReport = () => {};
const guarded = new WeakSet<object>();

/**
 * Keeps node-postgres from ending the process when a connection is lost and nobody
 * listens. pg reports a lost connection as an "error" event on its Client, and a
 * pool re-emits an idle client's on the Pool; Node's EventEmitter throws an "error"
 * event that has no listener, here from inside a socket callback, so the process
 * dies. The runtime's own clients all listen, but pools and clients the app makes
 * itself on `connectionString` are out of its reach: drizzle's pool has no listener
 * unless the app adds one, and the client drizzle checks out for a transaction never
 * has one. Any Encore app may do this, so the runtime, not each app, makes it safe.
 *
 * Once, at boot: the `emit` of node-postgres's Client and Pool is wrapped, so that an
 * "error" event with no listener is reported (logged) instead of thrown. Nothing is
 * lost by not throwing it: by then pg has marked the client unusable and failed its
 * queries with that error (the app sees it there), and a pool has already dropped it
 * and opens a new connection on the next query. Events that have a listener, and all
 * other events, go through untouched. Applies to the `pg` module the runtime imports
 * and to the one resolved from the app root, when that is another copy.
 *
 * Calling it again only replaces `onUnheard`.
 */
export function guardUnheardPgErrors(onUnheard: UnheardErrorReport, appRoot?: string): void {
  report = onUnheard;
  for (const module of [pg, appRoot ? resolvePg(appRoot) : undefined]) {
    if (!module) continue;
    guard(module.Client.prototype, "pg.Client");
    guard(module.Pool.prototype, "pg.Pool");
  }
}

function guard(proto: { emit: Emit }, emitter: string): void {
  if (guarded.has(proto)) return;
  guarded.add(proto);
  const emit = proto.emit;
  proto.emit = function (this: EventEmitter, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "error" && this.listenerCount("error") === 0) {
      report(args[0], emitter);
      return false;
    }
    return emit.call(this, event, ...args);
  };
}

/** The app's own `pg`, when it has one (an app need not use it directly). */
function resolvePg(appRoot: string): typeof pg | undefined {
  try {
    return createRequire(path.join(appRoot, "package.json"))("pg") as typeof pg;
  } catch {
    return undefined;
  }
}
