import { describe, expect, test } from "vitest";
import { DomainSet, type CustomDomain } from "./domain-set";

const domain = (host: string): CustomDomain => ({ host, rootUrl: null, notFoundUrl: null });

/** A read the test finishes by hand, to put notifications in the middle of one. */
function heldReads() {
  const pending: ((rows: CustomDomain[]) => void)[] = [];
  let reads = 0;
  const read = () => {
    reads++;
    return new Promise<CustomDomain[]>((resolve) => pending.push(resolve));
  };
  return { read, pending, count: () => reads };
}

describe("the set of custom domains", () => {
  test("unread, it is not 'none': the first request reads it rather than trust nothing", async () => {
    const set = new DomainSet(async () => []);
    expect(set.none).toBe(false);
    expect(set.current).toBeUndefined();
    expect((await set.loaded()).size).toBe(0);
    expect(set.none).toBe(true);
  });

  test("a change heard during a read is read again after it, never in parallel", async () => {
    const held = heldReads();
    const set = new DomainSet(held.read);
    const first = set.loaded();
    set.subscriber.notified("");
    set.subscriber.notified("");
    expect(held.count()).toBe(1);
    held.pending.shift()!([domain("a.example")]);
    await new Promise((r) => setImmediate(r));
    expect(held.count()).toBe(2);
    held.pending.shift()!([domain("a.example"), domain("b.example")]);
    await first;
    expect([...set.current!.keys()]).toEqual(["a.example", "b.example"]);
  });

  test("the listening connection coming back reads the set again; while down the set in hand answers", async () => {
    let rows = [domain("a.example")];
    const set = new DomainSet(async () => rows);
    await set.loaded();
    set.subscriber.down();
    rows = [];
    expect(set.current!.has("a.example")).toBe(true);
    set.subscriber.up();
    await new Promise((r) => setImmediate(r));
    expect(set.none).toBe(true);
  });
});
