import { replies, StoreReplyError } from "./errors.ts";
import type { CacheStore, InspectedKey, SetAlgebra, SetOptions, SetResult, Side, Ttl } from "./store.ts";

type Value = { type: "string"; value: string } | { type: "list"; value: string[] } | { type: "set"; value: Set<string> };
type Entry = Value & { expiresAt: number | null };

/** Keys with a TTL looked at by each write, so expired keys nobody reads again are freed too. */
const sweepPerWrite = 8;

/**
 * The cache of one process, for when no REDIS_URL is set: Encore runs an in-process
 * miniredis for this (runtimes/core/src/cache/miniredis.rs). Written here rather than
 * taken from npm: the packages that emulate Redis in process (ioredis-mock) are test
 * doubles of a client, and the operations Encore's keyspaces use are a few dozen
 * commands, each given Redis's semantics and replies below and checked against a real
 * Redis by the same cases (store.cases.ts).
 *
 * Expiry costs nothing while idle: there is no timer. A key past its time is dropped when
 * it is next touched, and each write also looks at a few keys with a TTL (`sweepPerWrite`),
 * dropping those past their time, so expired keys nobody reads are freed as writes go on.
 */
export class MemoryStore implements CacheStore {
  readonly kind = "memory";
  readonly #entries = new Map<string, Entry>();
  readonly #expiring = new Set<string>();
  #sweep: Iterator<string> | null = null;

  /** Keys held, expired ones not yet dropped included: what the process's memory holds. */
  get size(): number {
    return this.#entries.size;
  }

  async get(key: string): Promise<string | null> {
    return this.#string(key)?.value ?? null;
  }

  async mget(keys: readonly string[]): Promise<(string | null)[]> {
    return keys.map((key) => {
      const entry = this.#live(key);
      return entry?.type === "string" ? entry.value : null;
    });
  }

  async set(key: string, value: string, options: SetOptions): Promise<SetResult> {
    this.#write();
    const before = this.#live(key);
    if (options.get && before && before.type !== "string") throw new StoreReplyError(replies.wrongType);
    const previous = before?.type === "string" ? before.value : null;
    if (typeof options.ttl === "number" && !(options.ttl > 0)) throw new StoreReplyError(replies.invalidExpire);
    if ((options.condition === "nx" && before) || (options.condition === "xx" && !before)) return { written: false, previous };
    const expiresAt = options.ttl === "keep" ? (before?.expiresAt ?? null) : typeof options.ttl === "number" ? Date.now() + options.ttl : null;
    this.#put(key, { type: "string", value, expiresAt });
    return { written: true, previous };
  }

  async getDel(key: string): Promise<string | null> {
    const entry = this.#string(key);
    if (!entry) return null;
    this.#drop(key);
    return entry.value;
  }

  async del(keys: readonly string[]): Promise<number> {
    this.#write();
    let deleted = 0;
    for (const key of keys) {
      if (this.#live(key)) {
        this.#drop(key);
        deleted++;
      }
    }
    return deleted;
  }

  async mset(entries: readonly (readonly [string, string])[], ttl: Ttl): Promise<void> {
    this.#write();
    if (typeof ttl === "number" && !(ttl > 0)) throw new StoreReplyError(replies.invalidExpire);
    for (const [key, value] of entries) {
      const before = this.#live(key);
      const expiresAt = ttl === "keep" ? (before?.expiresAt ?? null) : typeof ttl === "number" ? Date.now() + ttl : null;
      this.#put(key, { type: "string", value, expiresAt });
    }
  }

  async append(key: string, value: string, ttl: Ttl): Promise<number> {
    return this.#writeString(key, ttl, (old) => (old ?? "") + value);
  }

  async getRange(key: string, start: number, end: number): Promise<string> {
    const bytes = Buffer.from(this.#string(key)?.value ?? "");
    const range = inclusiveRange(bytes.length, start, end);
    return range ? bytes.subarray(range[0], range[1] + 1).toString() : "";
  }

  async setRange(key: string, offset: number, value: string, ttl: Ttl): Promise<number> {
    if (offset < 0) throw new StoreReplyError(replies.offsetOutOfRange);
    const existing = this.#string(key);
    // Redis leaves a missing key missing when there is nothing to write.
    if (!existing && value === "") return 0;
    return this.#writeString(key, ttl, (old) => {
      const bytes = Buffer.from(old ?? "");
      const patch = Buffer.from(value);
      const out = Buffer.alloc(Math.max(bytes.length, offset + patch.length));
      bytes.copy(out);
      patch.copy(out, offset);
      return out.toString();
    });
  }

  async strlen(key: string): Promise<number> {
    return Buffer.byteLength(this.#string(key)?.value ?? "");
  }

  async incrBy(key: string, delta: number, ttl: Ttl): Promise<number> {
    let result = 0;
    await this.#writeString(key, ttl, (old) => {
      const current = old === null ? 0 : parseInteger(old);
      result = current + delta;
      if (!Number.isSafeInteger(result)) throw new StoreReplyError(replies.overflow);
      return String(result);
    });
    return result;
  }

  async incrByFloat(key: string, delta: number, ttl: Ttl): Promise<number> {
    let result = 0;
    await this.#writeString(key, ttl, (old) => {
      const current = old === null ? 0 : parseFloatValue(old);
      result = current + delta;
      if (!Number.isFinite(result)) throw new StoreReplyError("ERR increment would produce NaN or Infinity");
      return String(result);
    });
    return result;
  }

  async push(key: string, side: Side, values: readonly string[], ttl: Ttl): Promise<number> {
    this.#write();
    const list = this.#list(key, true)!;
    for (const value of values) {
      if (side === "left") list.value.unshift(value);
      else list.value.push(value);
    }
    this.#applyTtl(key, ttl);
    return list.value.length;
  }

  async pop(key: string, side: Side, ttl: Ttl): Promise<string | null> {
    this.#write();
    const list = this.#list(key);
    if (!list) return null;
    const value = side === "left" ? list.value.shift()! : list.value.pop()!;
    this.#settle(key, ttl);
    return value;
  }

  async lindex(key: string, index: number): Promise<string | null> {
    const items = this.#list(key)?.value ?? [];
    const at = index < 0 ? items.length + index : index;
    return at >= 0 && at < items.length ? items[at]! : null;
  }

  async lset(key: string, index: number, value: string): Promise<void> {
    this.#write();
    const list = this.#list(key);
    if (!list) throw new StoreReplyError(replies.noSuchKey);
    const at = index < 0 ? list.value.length + index : index;
    if (at < 0 || at >= list.value.length) throw new StoreReplyError(replies.indexOutOfRange);
    list.value[at] = value;
  }

  async lrange(key: string, start: number, stop: number): Promise<string[]> {
    const items = this.#list(key)?.value ?? [];
    const range = inclusiveRange(items.length, start, stop);
    return range ? items.slice(range[0], range[1] + 1) : [];
  }

  async ltrim(key: string, start: number, stop: number): Promise<void> {
    this.#write();
    const list = this.#list(key);
    if (!list) return;
    const range = inclusiveRange(list.value.length, start, stop);
    list.value = range ? list.value.slice(range[0], range[1] + 1) : [];
    this.#settle(key, undefined);
  }

  async linsert(key: string, where: "before" | "after", pivot: string, value: string, ttl: Ttl): Promise<number> {
    this.#write();
    const list = this.#list(key);
    if (!list) return 0;
    const at = list.value.indexOf(pivot);
    if (at === -1) return -1;
    list.value.splice(where === "before" ? at : at + 1, 0, value);
    this.#applyTtl(key, ttl);
    return list.value.length;
  }

  async lrem(key: string, count: number, value: string, ttl: Ttl): Promise<number> {
    this.#write();
    const list = this.#list(key);
    if (!list) return 0;
    const limit = count === 0 ? Infinity : Math.abs(count);
    let removed = 0;
    if (count >= 0) {
      list.value = list.value.filter((item) => !(item === value && removed < limit && ++removed));
    } else {
      const kept: string[] = [];
      for (let i = list.value.length - 1; i >= 0; i--) {
        const item = list.value[i]!;
        if (item === value && removed < limit) removed++;
        else kept.push(item);
      }
      list.value = kept.reverse();
    }
    this.#settle(key, ttl);
    return removed;
  }

  async lmove(src: string, dst: string, from: Side, to: Side, ttl: Ttl): Promise<string | null> {
    this.#write();
    const source = this.#list(src);
    if (!source) return null;
    this.#list(dst); // WRONGTYPE before anything moves, as Redis checks
    const value = from === "left" ? source.value.shift()! : source.value.pop()!;
    const target = this.#list(dst, true)!;
    if (to === "left") target.value.unshift(value);
    else target.value.push(value);
    this.#settle(src, ttl);
    this.#settle(dst, ttl);
    return value;
  }

  async llen(key: string): Promise<number> {
    return this.#list(key)?.value.length ?? 0;
  }

  async sadd(key: string, members: readonly string[], ttl: Ttl): Promise<number> {
    this.#write();
    const set = this.#set(key, true)!;
    const before = set.value.size;
    for (const member of members) set.value.add(member);
    this.#applyTtl(key, ttl);
    return set.value.size - before;
  }

  async srem(key: string, members: readonly string[], ttl: Ttl): Promise<number> {
    this.#write();
    const set = this.#set(key);
    if (!set) return 0;
    let removed = 0;
    for (const member of members) if (set.value.delete(member)) removed++;
    this.#settle(key, ttl);
    return removed;
  }

  async sismember(key: string, member: string): Promise<boolean> {
    return this.#set(key)?.value.has(member) ?? false;
  }

  async spop(key: string, ttl: Ttl): Promise<string | null> {
    return (await this.spopCount(key, 1, ttl))[0] ?? null;
  }

  async spopCount(key: string, count: number, ttl: Ttl): Promise<string[]> {
    if (count < 0) throw new StoreReplyError(replies.notPositive);
    this.#write();
    const set = this.#set(key);
    if (!set) return [];
    const popped = sample([...set.value], Math.min(count, set.value.size));
    for (const member of popped) set.value.delete(member);
    this.#settle(key, ttl);
    return popped;
  }

  async srandmember(key: string): Promise<string | null> {
    return (await this.srandmemberCount(key, 1))[0] ?? null;
  }

  async srandmemberCount(key: string, count: number): Promise<string[]> {
    const members = [...(this.#set(key)?.value ?? [])];
    if (members.length === 0) return [];
    if (count >= 0) return sample(members, Math.min(count, members.length));
    return Array.from({ length: -count }, () => members[Math.floor(Math.random() * members.length)]!);
  }

  async smembers(key: string): Promise<string[]> {
    return [...(this.#set(key)?.value ?? [])];
  }

  async scard(key: string): Promise<number> {
    return this.#set(key)?.value.size ?? 0;
  }

  async sAlgebra(op: SetAlgebra, keys: readonly string[]): Promise<string[]> {
    return [...this.#algebra(op, keys)];
  }

  async sAlgebraStore(op: SetAlgebra, dest: string, keys: readonly string[], ttl: Ttl): Promise<number> {
    this.#write();
    const result = this.#algebra(op, keys);
    this.#drop(dest);
    if (result.size === 0) return 0;
    this.#put(dest, { type: "set", value: result, expiresAt: null });
    this.#applyTtl(dest, ttl);
    return result.size;
  }

  async smove(src: string, dst: string, member: string, ttl: Ttl): Promise<boolean> {
    this.#write();
    const source = this.#set(src);
    this.#set(dst); // WRONGTYPE before anything moves
    if (!source?.value.has(member)) return false;
    source.value.delete(member);
    this.#set(dst, true)!.value.add(member);
    this.#settle(src, ttl);
    this.#settle(dst, ttl);
    return true;
  }

  async inspect(key: string): Promise<InspectedKey | null> {
    const entry = this.#live(key);
    if (!entry) return null;
    const ttlMs = entry.expiresAt === null ? null : Math.max(0, entry.expiresAt - Date.now());
    if (entry.type === "string") return { type: "string", value: entry.value, ttlMs };
    if (entry.type === "list") return { type: "list", value: [...entry.value], ttlMs };
    return { type: "set", value: [...entry.value].sort(), ttlMs };
  }

  async deletePrefix(prefix: string): Promise<number> {
    let deleted = 0;
    for (const key of [...this.#entries.keys()]) {
      if (key.startsWith(prefix)) {
        this.#drop(key);
        deleted++;
      }
    }
    return deleted;
  }

  async close(): Promise<void> {
    this.#entries.clear();
    this.#expiring.clear();
    this.#sweep = null;
  }

  /** The entry if it exists and has not expired; an expired one is dropped. */
  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt !== null && entry.expiresAt <= Date.now()) {
      this.#drop(key);
      return undefined;
    }
    return entry;
  }

  #string(key: string): (Entry & { type: "string" }) | undefined {
    const entry = this.#live(key);
    if (entry && entry.type !== "string") throw new StoreReplyError(replies.wrongType);
    return entry as (Entry & { type: "string" }) | undefined;
  }

  #list(key: string, create = false): (Entry & { type: "list" }) | undefined {
    const entry = this.#live(key);
    if (entry && entry.type !== "list") throw new StoreReplyError(replies.wrongType);
    if (entry || !create) return entry as (Entry & { type: "list" }) | undefined;
    const made: Entry & { type: "list" } = { type: "list", value: [], expiresAt: null };
    this.#entries.set(key, made);
    return made;
  }

  #set(key: string, create = false): (Entry & { type: "set" }) | undefined {
    const entry = this.#live(key);
    if (entry && entry.type !== "set") throw new StoreReplyError(replies.wrongType);
    if (entry || !create) return entry as (Entry & { type: "set" }) | undefined;
    const made: Entry & { type: "set" } = { type: "set", value: new Set(), expiresAt: null };
    this.#entries.set(key, made);
    return made;
  }

  #algebra(op: SetAlgebra, keys: readonly string[]): Set<string> {
    const sets = keys.map((key) => this.#set(key)?.value ?? new Set<string>());
    const [first, ...rest] = sets;
    const result = new Set(first);
    for (const member of result) {
      const keep = op === "inter" ? rest.every((s) => s.has(member)) : op === "diff" ? !rest.some((s) => s.has(member)) : true;
      if (!keep) result.delete(member);
    }
    if (op === "union") for (const s of rest) for (const member of s) result.add(member);
    return result;
  }

  /** A string command: `next` gets the current value (null when missing) and returns the new one. */
  async #writeString(key: string, ttl: Ttl, next: (old: string | null) => string): Promise<number> {
    this.#write();
    const old = this.#string(key);
    const value = next(old?.value ?? null);
    this.#put(key, { type: "string", value, expiresAt: old?.expiresAt ?? null });
    this.#applyTtl(key, ttl);
    return Buffer.byteLength(value);
  }

  #put(key: string, entry: Entry): void {
    this.#entries.set(key, entry);
    if (entry.expiresAt === null) this.#expiring.delete(key);
    else this.#expiring.add(key);
  }

  #drop(key: string): void {
    this.#entries.delete(key);
    this.#expiring.delete(key);
  }

  /** After a command that may have emptied a list or set: Redis deletes empty ones; else the TTL. */
  #settle(key: string, ttl: Ttl): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    if ((entry.type === "list" && entry.value.length === 0) || (entry.type === "set" && entry.value.size === 0)) this.#drop(key);
    else this.#applyTtl(key, ttl);
  }

  /** PEXPIREAT or PERSIST after a command, as Encore's client sends them; undefined and "keep" leave the TTL. */
  #applyTtl(key: string, ttl: Ttl): void {
    const entry = this.#entries.get(key);
    if (!entry || ttl === undefined || ttl === "keep") return;
    if (ttl === "persist") {
      entry.expiresAt = null;
      this.#expiring.delete(key);
    } else if (ttl <= 0) {
      this.#drop(key); // an expiry time already past deletes the key, as in Redis
    } else {
      entry.expiresAt = Date.now() + ttl;
      this.#expiring.add(key);
    }
  }

  /** Before each write: looks at the next few keys with a TTL, dropping expired ones. */
  #write(): void {
    if (this.#expiring.size === 0) return;
    for (let i = 0; i < sweepPerWrite; i++) {
      this.#sweep ??= this.#expiring.values();
      const next = this.#sweep.next();
      if (next.done) {
        this.#sweep = null;
        return;
      }
      this.#live(next.value);
    }
  }
}

/** Redis's index rules for GETRANGE/LRANGE/LTRIM: negative from the end, clamped; null when empty. */
function inclusiveRange(length: number, start: number, stop: number): [number, number] | null {
  let from = start < 0 ? length + start : start;
  let to = stop < 0 ? length + stop : stop;
  if (from < 0) from = 0;
  if (to >= length) to = length - 1;
  return from > to || from >= length ? null : [from, to];
}

function parseInteger(text: string): number {
  if (!/^-?(0|[1-9][0-9]*)$/.test(text)) throw new StoreReplyError(replies.notInteger);
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new StoreReplyError(replies.notInteger);
  return value;
}

function parseFloatValue(text: string): number {
  const value = text.trim() === text && text !== "" ? Number(text) : NaN;
  if (!Number.isFinite(value)) throw new StoreReplyError(replies.notFloat);
  return value;
}

/** `count` distinct members, in random order. */
function sample(members: string[], count: number): string[] {
  for (let i = members.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [members[i], members[j]] = [members[j]!, members[i]!];
  }
  return members.slice(0, count);
}
