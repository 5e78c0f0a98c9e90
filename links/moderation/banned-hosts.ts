import { bareHost } from "../../limits/links";
import { db } from "../db";
import type { Subscriber } from "../../pg-notify/listener";

/** The entry of `hosts` that `hostname` falls under (itself or a parent domain), or undefined. */
function entryIn(hosts: ReadonlySet<string>, hostname: string): string | undefined {
  // Each parent domain in turn: a lookup per label, however many hosts are banned.
  for (let host = bareHost(hostname); host !== ""; host = host.slice(host.indexOf(".") + 1 || host.length)) {
    if (hosts.has(host)) return host;
  }
  return undefined;
}

/** The channel migration 9's trigger notifies on whenever banned_hosts changes. */
export const bannedHostsChannel = "url_banned_hosts";

/**
 * This instance's copy of banned_hosts, so that checking a new link's host costs no
 * query. It is read at the first check, and read again at the first check after any
 * change: every change is notified on the url service's listening connection
 * (notifications/instance.ts), from any instance or SQL typed by hand, when it commits.
 *
 * The copy is trusted only while that connection listens. Until it first does, and
 * whenever it is lost, a change could go unheard, so each check reads the table itself
 * (a query per check, only then); once it listens again, the copy is read afresh.
 */
export class BannedHosts implements Subscriber {
  #hosts: ReadonlySet<string> | undefined;
  /** A read of the table in progress, shared by the checks that arrive meanwhile. */
  #loading: Promise<ReadonlySet<string>> | undefined;
  /** Counts the changes heard: a read begun before the latest one is not kept. */
  #generation = 0;
  #listening = false;

  constructor(private readonly load: () => Promise<readonly string[]>) {}

  notified(): void {
    this.#stale();
  }

  up(): void {
    this.#listening = true;
    this.#stale(); // changes made while it was down went unheard
  }

  down(): void {
    this.#listening = false;
    this.#stale();
  }

  /** The banned entry `hostname` falls under (itself or a parent domain), or undefined. */
  async entryFor(hostname: string): Promise<string | undefined> {
    return entryIn(await this.current(), hostname);
  }

  /** The banned entry each of `hostnames` falls under, or undefined: one read (of the copy, or of the table) for all. */
  async entriesFor(hostnames: readonly string[]): Promise<(string | undefined)[]> {
    const hosts = await this.current();
    return hostnames.map((hostname) => entryIn(hosts, hostname));
  }

  /** The banned hosts as of now. */
  current(): Promise<ReadonlySet<string>> {
    if (this.#hosts !== undefined) return Promise.resolve(this.#hosts);
    if (!this.#listening) return this.read();
    if (this.#loading === undefined) {
      const generation = this.#generation;
      const loading = this.read().then((hosts) => {
        if (generation === this.#generation && this.#listening) this.#hosts = hosts;
        return hosts;
      });
      // Forgotten once settled, so that a failed read is tried again by the next check.
      const settled = () => {
        if (this.#loading === loading) this.#loading = undefined;
      };
      loading.then(settled, settled);
      this.#loading = loading;
    }
    return this.#loading;
  }

  #stale(): void {
    this.#generation++;
    this.#hosts = undefined;
    this.#loading = undefined; // a read already under way may have missed the change
  }

  private async read(): Promise<ReadonlySet<string>> {
    return new Set(await this.load());
  }
}

/** This instance's copy. */
export const bannedHosts = new BannedHosts(async () => (await db.queryAll<{ host: string }>`SELECT host FROM banned_hosts`).map((r) => r.host));
