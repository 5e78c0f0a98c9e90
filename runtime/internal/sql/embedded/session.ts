import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { KeptConnection } from "../kept-connection.ts";
import { startCluster, stopCluster, type ClusterOptions } from "./cluster.ts";
import type { ClusterHome } from "./location.ts";

/**
 * This process's use of the embedded cluster. While it lasts, one idle connection
 * marks the process as a user of the server, so that another process (the cron
 * command, a second app instance) finishing meanwhile leaves the server running.
 * Connections carry the application name `encore-selfhost/<pid>`, which tells this
 * process's own connections from everyone else's when it decides whether to stop it.
 * The presence connection is opened again when it is lost (the server restarted),
 * so a process whose pools are idle still counts as a user afterwards.
 */
export class EmbeddedSession {
  private constructor(
    /** The server's address for the runtime's own connections, named for this process. */
    readonly url: string,
    /**
     * The same address as a plain URL, postgres://user:password@127.0.0.1:port/postgres,
     * for the connection strings handed to the app: every client library parses it.
     */
    readonly plainUrl: string,
    private readonly options: ClusterOptions,
    private readonly presence: KeptConnection,
    readonly started: boolean,
    /** Where the cluster lives: `options.dir`, or elsewhere under root (clusterHome). */
    readonly home: ClusterHome,
  ) {}

  /** Joins the cluster, starting (and on first use, creating) it when needed. */
  static async open(options: ClusterOptions & { readonly connectTimeoutMs: number }): Promise<EmbeddedSession> {
    const cluster = await startCluster(options);
    nameThisProcessConnections();
    const url = new URL(cluster.url);
    url.searchParams.set("application_name", applicationName);
    const presence = new KeptConnection({ url: url.href, connectTimeoutMs: options.connectTimeoutMs });
    await presence.open();
    return new EmbeddedSession(url.href, cluster.url, options, presence, cluster.started, cluster.home);
  }

  /**
   * Ends this process's use of the cluster, and stops the server if no other
   * process is connected to it: the last one out turns off the lights. Call it
   * after the runtime's own pools are closed.
   *
   * Pools the app made itself on `connectionString` (drizzle's, knex's) are still
   * open then: the app seldom closes them at SIGTERM. Their queries in progress get
   * up to `graceMs` to finish; then every connection of this process still open is
   * ended by the server (pg_terminate_backend), so the app's clients see a closed
   * connection while the process is still in charge, rather than the server
   * vanishing under them, and they no longer count as another user of the cluster.
   */
  async release(graceMs = 0): Promise<OtherUsers> {
    await this.presence.close();
    const admin = new pg.Client({ connectionString: this.url });
    admin.on("error", () => {});
    let others: OtherUsers = [];
    try {
      await admin.connect();
      await untilIdle(admin, graceMs);
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND application_name = $1`,
        [applicationName],
      );
      // A connection still logging in ('starting': its application name is not known yet)
      // is nobody's presence: it may be this process's own app retrying a query, or a
      // client meant for another cluster that will fail the password.
      const { rows } = await admin.query<OtherUsers[number]>(
        `SELECT pid, application_name AS "applicationName", state FROM pg_stat_activity
         WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND application_name IS DISTINCT FROM $1
           AND state IS DISTINCT FROM 'starting'`,
        [applicationName],
      );
      others = rows;
    } catch {
      // The server is not answering: stopping it is all that is left to do.
    } finally {
      await admin.end().catch(() => {});
    }
    if (others.length === 0) await stopCluster(this.options.dir);
    return others;
  }
}

/** The connections of other processes that kept the server running at release: empty when it was stopped. */
export type OtherUsers = ReadonlyArray<{ readonly pid: number; readonly applicationName: string | null; readonly state: string | null }>;

/** Waits, up to `graceMs`, until none of this process's other connections is running a query or in a transaction. */
async function untilIdle(admin: pg.Client, graceMs: number): Promise<void> {
  for (const deadline = Date.now() + graceMs; Date.now() < deadline; await sleep(50)) {
    const { rows } = await admin.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND application_name = $1 AND state <> 'idle'`,
      [applicationName],
    );
    if (rows[0]!.n === 0) return;
  }
}

const applicationName = `encore-selfhost/${process.pid}`;

/**
 * The app's own clients on `connectionString` (drizzle's pool, knex, postgres.js) carry
 * this process's name too, though the connection string stays plain: node-postgres
 * and postgres.js take the application name from PGAPPNAME when the URL gives none.
 * So they count as this process's connections, not another user's, when the cluster
 * is released. A PGAPPNAME the user set is kept; one inherited from another runtime
 * process (the dev command's parent) is replaced.
 */
function nameThisProcessConnections(): void {
  const current = process.env.PGAPPNAME;
  if (!current || /^encore-selfhost\/\d+$/.test(current)) process.env.PGAPPNAME = applicationName;
}
