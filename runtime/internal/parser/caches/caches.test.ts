import { describe, expect, it } from "vitest";
import { fixture, lineOf, parseError } from "../../../test/parser-fixtures.ts";
import { parseApp } from "../mod.ts";

describe("cache clusters and keyspaces", () => {
  const meta = parseApp(fixture("caches/valid"));

  it("reads each cluster with its eviction policy and the keyspaces bound to it, by variable, named() or inline", () => {
    expect(meta.caches).toEqual([
      {
        name: "sessions",
        evictionPolicy: "volatile-ttl",
        declaredIn: { file: "svc/cache.ts", line: 8 },
        keyspaces: [
          {
            type: "IntKeyspace",
            keyPattern: "count/:key",
            keyType: "string",
            valueType: "number",
            defaultExpiry: null,
            service: "svc",
            declaredIn: { file: "svc/cache.ts", line: 11 },
          },
          {
            type: "StructKeyspace",
            keyPattern: "user/:region/:id",
            keyType: "UserKey",
            valueType: "{ name: string }",
            defaultExpiry: "expireInHours(1)",
            service: "svc",
            declaredIn: { file: "svc/cache.ts", line: 10 },
          },
        ],
      },
      {
        name: "tags",
        evictionPolicy: "allkeys-lru",
        declaredIn: { file: "svc/cache.ts", line: 12 },
        keyspaces: [
          {
            type: "StringSetKeyspace",
            keyPattern: "tags/:key",
            keyType: "number",
            valueType: "string",
            defaultExpiry: null,
            service: "svc",
            declaredIn: { file: "svc/cache.ts", line: 12 },
          },
        ],
      },
    ]);
  });
});

interface Case {
  readonly fixture: string;
  /** Text on the line the error must point at, in svc/cache.ts. */
  readonly at: string;
  readonly message: string;
}

const CASES: readonly Case[] = [
  {
    fixture: "bad-policy",
    at: 'evictionPolicy: "lru"',
    message:
      "invalid eviction policy: must be one of noeviction, allkeys-lru, allkeys-lfu, allkeys-random, volatile-lru, volatile-lfu, volatile-ttl, or volatile-random",
  },
  {
    fixture: "duplicate-cluster",
    at: 'b = new CacheCluster("c")',
    message: 'cache cluster "c" is already declared at svc/cache.ts:3; use CacheCluster.named("c") to refer to it',
  },
  {
    fixture: "named-unknown",
    at: 'CacheCluster.named("missing")',
    message: 'CacheCluster.named("missing") refers to a cache cluster that no `new CacheCluster("missing")` declares',
  },
  { fixture: "basic-key-param", at: 'keyPattern: "s/:id"', message: "KeyPattern parameter must be named ':key' for basic (non-struct) key types" },
  { fixture: "reserved-prefix", at: "keyPattern:", message: "the prefix `__encore` is reserved for internal use by Encore" },
  { fixture: "unused-field", at: "new StringKeyspace<Key>", message: "cache key field 'region' is not used in the keyPattern" },
  { fixture: "unknown-param", at: "keyPattern:", message: "keyPattern parameter 'region' does not exist in the key type" },
  { fixture: "field-type", at: "new StringKeyspace<Key>", message: "cache key field 'when' must be a basic type (string, number, or boolean)" },
  { fixture: "any-key", at: "new StringKeyspace<any>", message: "'any' is not supported as a cache key type" },
  { fixture: "missing-key-type", at: "new StringKeyspace(cluster", message: "missing key type parameter" },
  { fixture: "struct-value", at: "new StructKeyspace<string, string>", message: "StructKeyspace value type must be an interface or object type" },
  { fixture: "unresolved-cluster", at: "new StringKeyspace<string>(pick()", message: "could not resolve cache cluster reference" },
  { fixture: "pattern-not-literal", at: "keyPattern: pattern", message: "keyPattern must be a string literal" },
];

describe("cache declarations Encore's parser refuses are refused, naming file and line", () => {
  it.each(CASES)("$fixture", (testCase) => {
    const root = fixture(`caches/${testCase.fixture}`);
    const line = lineOf(root, "svc/cache.ts", testCase.at);
    expect(parseError(root).message).toBe(`svc/cache.ts:${line}: ${testCase.message}`);
  });
});
