import { describe, expect, test } from "vitest";
import { LinkPasswordLimits, maxUnfinished } from "./link-passwords";

/** A check that answers when told to, and says whether it was run. */
function pending(): { check: () => Promise<boolean>; answer: (right: boolean) => void; started: () => boolean } {
  let answer!: (right: boolean) => void;
  let started = false;
  const promise = new Promise<boolean>((resolve) => (answer = resolve));
  return {
    check: () => {
      started = true;
      return promise;
    },
    answer: (right) => answer(right),
    started: () => started,
  };
}

const right = () => Promise.resolve(true);
const wrong = () => Promise.resolve(false);

describe("LinkPasswordLimits in memory", () => {
  test("only wrong answers count: 4 cost nothing, then the pair waits; a right one clears it", async () => {
    const limits = new LinkPasswordLimits(null);
    for (let i = 0; i < 3; i++) expect(await limits.attempt("203.0.113.1", "code01", wrong)).toBe(false);
    for (let i = 0; i < 20; i++) expect(await limits.attempt("203.0.113.1", "code01", right)).toBe(true); // never counted
    for (let i = 0; i < 4; i++) expect(await limits.attempt("203.0.113.1", "code01", wrong)).toBe(false);
    const refused = await limits.attempt("203.0.113.1", "code01", right).catch((err: unknown) => err);
    expect(refused).toMatchObject({ code: "resource_exhausted", message: expect.stringMatching(/^too many wrong passwords for this link/) });
    expect(await limits.attempt("203.0.113.2", "code01", right)).toBe(true); // another address
    expect(await limits.attempt("203.0.113.1", "code02", right)).toBe(true); // another link
  });

  test("a pair's attempts are checked one at a time, each on the failures of those before it", async () => {
    const limits = new LinkPasswordLimits(null);
    const checks = Array.from({ length: maxUnfinished }, pending);
    const answers = checks.map((c) => limits.attempt("203.0.113.3", "code03", c.check).catch((err: unknown) => err));
    await new Promise((resolve) => setImmediate(resolve));
    expect(checks.map((c) => c.started())).toEqual([true, false, false, false]);
    for (const [i, c] of checks.entries()) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(c.started()).toBe(true);
      c.answer(i === 2); // wrong, wrong, right, wrong
      await answers[i];
    }
    expect(await Promise.all(answers)).toEqual([false, false, true, false]);
  });

  test(`past ${maxUnfinished} attempts of a pair under way, the next is refused untried and counts nothing`, async () => {
    const limits = new LinkPasswordLimits(null);
    const checks = Array.from({ length: maxUnfinished }, pending);
    const answers = checks.map((c) => limits.attempt("203.0.113.4", "code04", c.check));
    const extra = pending();
    const refused = await limits.attempt("203.0.113.4", "code04", extra.check).catch((err: unknown) => err);
    expect(refused).toMatchObject({ code: "resource_exhausted", message: expect.stringMatching(/being tried at once/), details: { retryAfterSeconds: 1 } });
    expect(extra.started()).toBe(false);
    for (const c of checks) c.answer(true);
    expect(await Promise.all(answers)).toEqual([true, true, true, true]);
    expect(await limits.attempt("203.0.113.4", "code04", right)).toBe(true); // the line is free again
  });

  test("a check that fails (the server too busy) counts nothing", async () => {
    const limits = new LinkPasswordLimits(null);
    const busy = () => Promise.reject(new Error("too many passwords being checked"));
    for (let i = 0; i < 10; i++) await expect(limits.attempt("203.0.113.5", "code05", busy)).rejects.toThrow(/too many passwords/);
    for (let i = 0; i < 4; i++) expect(await limits.attempt("203.0.113.5", "code05", wrong)).toBe(false); // still 4 free
  });
});
