import { EventEmitter } from "node:events";
import type pg from "pg";

export interface PortalField {
  readonly name: string;
  readonly dataTypeID: number;
}

type TypeParsers = { getTypeParser(oid: number, format: "text"): (value: string) => unknown };

/**
 * A protocol-level Describe and Execute of a portal that already exists (a cursor made
 * by DECLARE): node-postgres's custom query interface, as pg-cursor uses it. Execute
 * with a row limit makes the server compute and send rows as they go, at most
 * `maxRows`, where SQL's FETCH would first compute all of them into a store on the
 * server. Each row is handed over as it arrives, so rows read before the connection
 * is cut are kept. `maxRows` 0 only describes the columns.
 */
export class PortalRead extends EventEmitter implements pg.Submittable {
  fields: readonly PortalField[] = [];
  readonly rows: unknown[][] = [];
  private parsers: ((value: string) => unknown)[] = [];
  private readonly settled: Promise<void>;
  private settle!: (err: Error | null) => void;

  constructor(
    private readonly portal: string,
    private readonly maxRows: number,
    private readonly types: TypeParsers,
  ) {
    super();
    this.settled = new Promise((resolve, reject) => (this.settle = (err) => (err ? reject(err) : resolve())));
    this.settled.catch(() => {}); // read through done()
  }

  /** Resolves once the server is done with it (ReadyForQuery); rejects with its error, or the connection's. */
  done(): Promise<void> {
    return this.settled;
  }

  submit(connection: pg.Connection): void {
    connection.describe({ type: "P", name: this.portal }, true);
    // @types/pg says rows is a string; pg-protocol writes it as a 32-bit integer.
    if (this.maxRows > 0) connection.execute({ portal: this.portal, rows: this.maxRows as unknown as string }, true);
    connection.sync();
  }

  handleRowDescription(msg: { fields: PortalField[] }): void {
    this.fields = msg.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID }));
    this.parsers = this.fields.map((f) => this.types.getTypeParser(f.dataTypeID, "text"));
  }

  handleDataRow(msg: { fields: (string | null)[] }): void {
    this.rows.push(msg.fields.map((value, i) => (value === null ? null : this.parsers[i]!(value))));
  }

  handleError(err: Error): void {
    this.settle(err);
  }

  handleReadyForQuery(): void {
    this.settle(null);
  }

  // Told of, and nothing to do: more rows left (the caller counts rows), the end, no rows.
  handlePortalSuspended(): void {}
  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
}
