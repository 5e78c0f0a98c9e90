import { mkdir, open, readdir, readFile, rename, rm, type FileHandle } from "node:fs/promises";
import path from "node:path";
import type { Doubtful } from "./batches";
import { currentOwner, type Owner } from "./owner";

/** The first line of a journal: whose it is. */
export interface JournalHeader {
  readonly clickJournal: 1;
  /** The writer whose batches it holds (its row in click_writers). */
  readonly writer: string;
  /** The process that writes it, so that no other replays it while it lives. */
  readonly owner: Owner;
}

/** Journals are named after their writer: `clicks-<writer>.journal`. */
const prefix = "clicks-";
const suffix = ".journal";

/** Appends past this size (and past four times the last rewrite) rewrite the journal from what is still unwritten. */
const defaultRewriteAboveBytes = 1 << 20;

/**
 * A writer's clicks not yet stored, on local disk, while the database cannot take
 * them: one line of JSON per record, `{"seq": n, "clicks": {code: count}}`, each
 * appended and fsynced before it counts as kept. A record belongs to the batch
 * numbered `seq`, so a replay stores exactly the records above the writer's `seq`
 * in the database (ClickWriter, batches.ts). A line cut short by a crash is
 * ignored: its clicks were never reported kept.
 *
 * Created at the first record, removed once everything in it is stored; an app
 * whose database never fails never writes one.
 */
export class ClickJournal {
  readonly path: string;
  readonly #dir: string;
  readonly #header: JournalHeader;
  #file: FileHandle | undefined;
  #size = 0;
  #sizeAfterRewrite = 0;
  /** One file operation at a time, in order. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    dir: string,
    writer: string,
    private readonly rewriteAboveBytes = defaultRewriteAboveBytes,
  ) {
    this.#dir = dir;
    this.path = path.join(dir, `${prefix}${writer}${suffix}`);
    this.#header = { clickJournal: 1, writer, owner: currentOwner() };
  }

  /** Whether the journal exists (holds records not known to be stored). */
  get open(): boolean {
    return this.#file !== undefined;
  }

  /** Whether appends have grown it enough that rewriting it from what is unwritten would shrink it. */
  get wantsRewrite(): boolean {
    return this.#size > this.rewriteAboveBytes && this.#size > 4 * this.#sizeAfterRewrite;
  }

  /** Appends a record of batch `seq` and resolves once it is on disk. */
  append(seq: number, clicks: ReadonlyMap<string, number>): Promise<void> {
    return this.serially(async () => {
      if (!this.#file) await this.create();
      const line = recordLine({ seq, counts: clicks });
      await this.#file!.write(line);
      await this.#file!.sync();
      this.#size += Buffer.byteLength(line);
    });
  }

  /** Replaces the journal, atomically, with `records`: what is unwritten now. */
  rewrite(records: readonly Doubtful[]): Promise<void> {
    return this.serially(async () => {
      const staging = `${this.path}.rewrite`;
      const text = headerLine(this.#header) + records.map(recordLine).join("");
      const file = await open(staging, "w", 0o600);
      try {
        await file.write(text);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(staging, this.path);
      await syncDir(this.#dir);
      await this.#file?.close();
      this.#file = await open(this.path, "a");
      this.#size = this.#sizeAfterRewrite = Buffer.byteLength(text);
    });
  }

  /** Everything in it is stored: removes it. */
  remove(): Promise<void> {
    return this.serially(async () => {
      await this.#file?.close();
      this.#file = undefined;
      await rm(this.path, { force: true });
    });
  }

  private async create(): Promise<void> {
    await mkdir(this.#dir, { recursive: true, mode: 0o700 });
    this.#file = await open(this.path, "a", 0o600);
    const header = headerLine(this.#header);
    await this.#file.write(header);
    await this.#file.sync();
    await syncDir(this.#dir); // the new name itself survives a crash
    this.#size = this.#sizeAfterRewrite = Buffer.byteLength(header);
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => {});
    return run;
  }
}

/** A journal found on disk, as a replay reads it. */
export interface JournalFile {
  readonly path: string;
  readonly header: JournalHeader;
  readonly records: Doubtful[];
}

/** The journals in `dir`, whatever their owner's state; none when the folder does not exist. */
export async function journalsIn(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((f) => f.startsWith(prefix) && f.endsWith(suffix)).map((f) => path.join(dir, f));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
}

/** Reads a journal; a last line without its newline (cut short by a crash) is left out. Throws on anything else malformed. */
export async function readJournal(file: string): Promise<JournalFile> {
  const lines = (await readFile(file, "utf8")).split("\n");
  lines.pop(); // after the last newline: empty, or a line the crash cut short
  const [first, ...rest] = lines;
  const header = JSON.parse(first ?? "null") as JournalHeader | null;
  if (header?.clickJournal !== 1 || typeof header.writer !== "string") throw new Error(`${file} is not a click journal`);
  const records = rest.map((line) => {
    const { seq, clicks } = JSON.parse(line) as { seq: number; clicks: Record<string, number> };
    return { seq, counts: new Map(Object.entries(clicks)) };
  });
  return { path: file, header, records };
}

function headerLine(header: JournalHeader): string {
  return `${JSON.stringify(header)}\n`;
}

function recordLine({ seq, counts }: Doubtful): string {
  return `${JSON.stringify({ seq, clicks: Object.fromEntries(counts) })}\n`;
}

/** Makes a folder's entries (a new or renamed file) durable. */
async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
