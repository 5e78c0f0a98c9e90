import log from "encore.dev/log";
import type { Subscriber } from "../../pg-notify/listener";

const retryMs = 1000;

/** What a request on a custom domain needs of it. */
export interface CustomDomain {
  readonly host: string;
  /** Where GET / sends visitors; null: the domain's own short page. */
  readonly rootUrl: string | null;
  /** Where an unknown code sends visitors; null: the 404. */
  readonly notFoundUrl: string | null;
}

/** The channel url migration 17's trigger notifies on at every change of the domains table. */
export const domainsChannel = "url_domains_changed";

/**
 * The verified custom domains, host → domain, kept in memory in each instance: every
 * request asks whether its host is one, and they are few. Read at the first use, and
 * again at each url_domains_changed notification and each time the listening connection
 * comes back (changes made while it was down were missed, so the set it had is not
 * trusted past that). While the connection is down the set in hand keeps answering, as
 * the link cache does: an outage must not take the domains' links down.
 *
 * Reads never overlap: a notification during a read asks for one more read after it, so
 * the set always ends up newer than the last change heard of.
 */
export class DomainSet {
  #domains: ReadonlyMap<string, CustomDomain> | undefined;
  #reading: Promise<void> | undefined;
  #again = false;

  constructor(private readonly read: () => Promise<readonly CustomDomain[]>) {}

  /** True once read and there are no verified domains: every request is on the default host, and nothing else need be looked at. */
  get none(): boolean {
    return this.#domains !== undefined && this.#domains.size === 0;
  }

  /** The set, when read already. */
  get current(): ReadonlyMap<string, CustomDomain> | undefined {
    return this.#domains;
  }

  /** The set, read first when it never was. */
  async loaded(): Promise<ReadonlyMap<string, CustomDomain>> {
    if (this.#domains === undefined) await this.refresh();
    return this.#domains!;
  }

  /** Reads the set again (after the read under way, if one is). Rejects when the read fails. */
  refresh(): Promise<void> {
    if (this.#reading !== undefined) {
      this.#again = true;
      return this.#reading;
    }
    this.#reading = this.readAll().finally(() => {
      this.#reading = undefined;
    });
    return this.#reading;
  }

  private async readAll(): Promise<void> {
    do {
      this.#again = false;
      const rows = await this.read();
      this.#domains = new Map(rows.map((d) => [d.host, d]));
    } while (this.#again);
  }

  /** The listening connection's side: every change and every reconnection reads the set again. */
  readonly subscriber: Subscriber = {
    notified: () => this.refreshQuietly(),
    up: () => this.refreshQuietly(),
    down: () => {},
  };

  /** A refresh nobody waits for: a failed read leaves the set as it was, and is tried again a second later. */
  private refreshQuietly(): void {
    this.refresh().catch((err: unknown) => {
      log.warn(err, "reading the custom domains failed; retrying in a second");
      setTimeout(() => this.refreshQuietly(), retryMs).unref();
    });
  }
}
