// Hostile HTTP requests, generated with fast-check from the app's OpenAPI document (every
// operation, its path, query and body schemas) and from the routes the document leaves out
// (the raw short-link route, objects, health, the front end): wrong types, missing and extra
// fields, huge and deeply nested bodies, invalid UTF-8, odd content types, charsets,
// encodings and methods, path traversal, unicode in codes, and requests broken at the HTTP
// level, sent on a raw socket.
import { gzipSync } from "node:zlib";
import fc from "fast-check";

export interface FuzzRequest {
  readonly method: string;
  /** As sent on the request line: already percent-encoded where it should be. */
  readonly path: string;
  readonly headers: Record<string, string>;
  /** Made when sent, so that 10,000 requests held at once hold no huge body. */
  readonly body?: () => Buffer;
  /** Whether to send a Content-Length (Node's client sends a body without one chunked). */
  readonly withLength?: boolean;
  /** The operation it was built from, for the report. */
  readonly target: string;
  /** Bytes to write on a socket as they are, for requests Node's client refuses to send. */
  readonly raw?: Buffer;
}

/** What the requests may refer to: things that exist, so some requests get past lookups. */
export interface Known {
  readonly codes: readonly string[];
  readonly ids: readonly string[];
  /** Authorization header values: a valid token among garbage. */
  readonly tokens: readonly string[];
}

interface Schema {
  type?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
}

interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  schema?: Schema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}

export interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
}

/** Values a schema accepts (bounded in size: the hostile ones come from elsewhere). */
function valid(schema: Schema = {}): fc.Arbitrary<unknown> {
  switch (schema.type) {
    case "string":
      if (schema.format === "email") return fc.emailAddress();
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40), unit: "grapheme" });
    case "number":
      return fc.integer({ min: Math.max(schema.minimum ?? -1e6, -1e6), max: Math.min(schema.maximum ?? 1e6, 1e6) });
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.array(valid(schema.items), { maxLength: 4 });
    case "object": {
      const props = schema.properties ?? {};
      const arbs = Object.fromEntries(Object.entries(props).map(([k, s]) => [k, valid(s)]));
      return fc.record(arbs, { requiredKeys: (schema.required ?? []).filter((k) => k in props) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Strings no endpoint wants: unicode of every kind, control characters, lone surrogates, injections. */
const nastyString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "\uD800",
    "\uDFFF\uD800",
    "\u202E",
    "𝕦𝕣𝕝",
    "ünïcödé",
    "../../etc/passwd",
    "' OR 1=1 --",
    "${7*7}",
    "__proto__",
    "javascript:alert(1)",
    "https://sho.rt/x",
    "http://[::1",
    "https://xn--80ak6aa92e.com",
    "9".repeat(400),
    "a".repeat(5000),
  ),
);

/** A value of the wrong type for almost any field. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  fc.double({ noDefaultInfinity: true, noNaN: true }),
  fc.constantFrom(null, true, false, 0, -1, 1e308, -0, 2 ** 53 + 1, 1.5, [], {}, [null], { $gt: "" }),
  fc.jsonValue({ maxDepth: 3 }),
);

function nested(depth: number, kind: "array" | "object"): string {
  return kind === "array" ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
}

/** JSON texts of one body schema, from correct to hostile, as bytes. */
function bodyText(schema: Schema | undefined): fc.Arbitrary<() => Buffer> {
  const props = Object.keys(schema?.properties ?? {});
  const record = valid(schema ?? { type: "object" }) as fc.Arbitrary<Record<string, unknown>>;
  const json = (v: unknown) => () => Buffer.from(JSON.stringify(v) ?? "null");
  const text = (t: string) => () => Buffer.from(t);
  const withField = (f: (body: Record<string, unknown>, key: string) => void) =>
    fc.tuple(record, fc.constantFrom(...(props.length ? props : ["x"]))).map(([body, key]) => {
      const copy = { ...body };
      f(copy, key);
      return json(copy);
    });
  return fc.oneof(
    // Few bodies that are entirely valid: sign-up and login hash a password (scrypt), a
    // cost the machine pays for every one accepted.
    { weight: 2, arbitrary: record.map(json) },
    { weight: 6, arbitrary: fc.tuple(record, fc.constantFrom(...(props.length ? props : ["x"])), wrongValue).map(([b, k, v]) => json({ ...b, [k]: v })) },
    { weight: 3, arbitrary: withField((b, k) => delete b[k]) },
    { weight: 2, arbitrary: fc.tuple(record, fc.dictionary(nastyString, wrongValue, { maxKeys: 4 })).map(([b, extra]) => json({ ...extra, ...b })) },
    { weight: 2, arbitrary: record.map((b) => text(`{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},${JSON.stringify(b).slice(1)}`)) },
    { weight: 4, arbitrary: fc.jsonValue().map(json) },
    // Huge: past the 2 MiB body limit, or just under it in one field.
    { weight: 1, arbitrary: fc.constantFrom(3 * 2 ** 20, 2 ** 20 - 100, 500_000).map((n) => () => Buffer.from(`{"url":"https://example.com/${"a".repeat(n)}","email":"${"a".repeat(n)}"}`)) },
    { weight: 1, arbitrary: fc.integer({ min: 10_000, max: 100_000 }).map((n) => () => Buffer.from(`{"items":[${Array(n).fill('{"productId":1,"quantity":1}').join(",")}]}`)) },
    // Deeply nested, as the whole body or as one field.
    { weight: 2, arbitrary: fc.tuple(fc.integer({ min: 100, max: 200_000 }), fc.constantFrom("array", "object") as fc.Arbitrary<"array" | "object">).map(([d, k]) => text(nested(d, k))) },
    { weight: 2, arbitrary: fc.tuple(record, fc.constantFrom(...(props.length ? props : ["x"])), fc.integer({ min: 100, max: 50_000 })).map(([b, k, d]) => text(JSON.stringify({ ...b, [k]: "§" }).replace('"§"', nested(d, "object")))) },
    // Invalid UTF-8 inside a string, and text that is not JSON at all.
    { weight: 3, arbitrary: fc.tuple(record, fc.constantFrom(...invalidUtf8)).map(([b, bad]) => () => spliceIntoString(json(b)(), bad)) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 200 }).map((a) => () => Buffer.from(a)) },
    { weight: 2, arbitrary: fc.constantFrom("", "{", '{"url":', "null", "[]", "1", '"str"', "{}{}", "\uFEFF{}", "{\"url\":\"https://a.example\"", "url=https://a.example").map(text) },
  );
}

/** Byte sequences that are not UTF-8: stray continuation, overlong, surrogate half, truncated, out of range. */
const invalidUtf8 = [
  Buffer.from([0x80]),
  Buffer.from([0xc3, 0x28]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xe2, 0x82]),
  Buffer.from([0xf4, 0x90, 0x80, 0x80]),
  Buffer.from([0xff, 0xfe, 0xfd]),
];

/** `bad` put inside the first string of a JSON text (or at its end when it has none). */
function spliceIntoString(text: Buffer, bad: Buffer): Buffer {
  const quote = text.indexOf(0x22, text.indexOf(0x3a)); // the first string value, after a colon
  const at = quote >= 0 ? quote + 1 : text.length;
  return Buffer.concat([text.subarray(0, at), bad, text.subarray(at)]);
}

const contentTypes = fc.constantFrom(
  "application/json",
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=UTF-16",
  "application/json; charset=latin1",
  "application/json; charset=nonsense",
  'application/json; charset="',
  "application/json;;;",
  "application/merge-patch+json",
  "text/plain",
  "text/plain; charset=utf-8",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=xyz",
  "multipart/form-data",
  "application/xml",
  "application/octet-stream",
  "a/b/c",
  "*/*",
  "",
);

const methods = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "PROPFIND", "PURGE", "MKCOL"];

/** A path segment: something real, or something hostile, percent-encoded as a client would (or deliberately not). */
function segment(known: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...known) },
    { weight: 3, arbitrary: nastyString.filter((s) => s.length > 0).map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, "x"))) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        "..",
        "..%2f..%2fpackage.json",
        "%2e%2e%2f%2e%2e%2fpackage.json",
        "..%5c..%5cpackage.json",
        "%00",
        "%zz",
        "%",
        "%C3%28",
        "%ED%A0%80",
        "%F0%9F%98%80",
        "%E2%80%AE",
        "0",
        "-1",
        "1e400",
        "NaN",
        "99999999999999999999",
        "%20",
        "a;b",
        "a%3Fb",
        "a%23b",
        "CON",
        "x".repeat(3000),
      ),
    },
  );
}

const queryValue = fc.oneof(
  fc.integer({ min: -5, max: 200 }).map(String),
  fc.constantFrom("", "1e400", "-0", "NaN", "Infinity", "0x10", "1.5", "%zz", "%00", "%C3%28", "abc", "2147483648", "1&limit=2", "9".repeat(100)),
  nastyString.map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, "x"))),
);

function query(params: readonly Parameter[]): fc.Arbitrary<string> {
  const names = params.filter((p) => p.in === "query").map((p) => p.name);
  const pairs = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...(names.length ? names : ["limit"])), fc.constantFrom("extra", "limit[]", "__proto__", "")), queryValue), { maxLength: 4 });
  return pairs.map((ps) => (ps.length ? `?${ps.map(([k, v]) => `${k}=${v}`).join("&")}` : ""));
}

/** Headers of a request with a body: content type, sometimes compressed (truly or not), length or chunked. */
function bodyHeaders(body: () => Buffer): fc.Arbitrary<{ headers: Record<string, string>; body: () => Buffer; withLength: boolean }> {
  return fc
    .record({
      type: contentTypes,
      encoding: fc.constantFrom(undefined, undefined, undefined, "gzip", "gzip (real)", "deflate", "br", "identity", "gzip, gzip", "x-garbage"),
      chunked: fc.boolean(),
    })
    .map(({ type, encoding, chunked }) => {
      const headers: Record<string, string> = {};
      if (type) headers["content-type"] = type;
      if (encoding) headers["content-encoding"] = encoding === "gzip (real)" ? "gzip" : encoding;
      return { headers, body: encoding === "gzip (real)" ? () => gzipSync(body()) : body, withLength: !chunked };
    });
}

const authHeader = (tokens: readonly string[]) =>
  fc.option(
    fc.oneof(
      fc.constantFrom(...tokens),
      fc.constantFrom("Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "bearer x.y.z", `Bearer ${"a".repeat(7000)}`, "Bearer e30.e30.", "Token abc"),
      fc.string({ unit: "binary-ascii", maxLength: 60 }).map((s) => `Bearer ${s.replace(/[^\x21-\x7e]/g, "")}`),
    ),
    { nil: undefined },
  );

const acceptHeader = fc.constantFrom(undefined, "text/html", "application/json", "*/*", "image/png", "text/html;q=0, application/json;q=0", "x/y; q=abc");

/** Requests for one operation of the OpenAPI document. */
function operationRequests(template: string, method: string, op: Operation, known: Known): fc.Arbitrary<FuzzRequest> {
  const params = op.parameters ?? [];
  const pathNames = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const knownFor = (name: string) => (name === "code" ? known.codes : name === "date" ? ["2026-01-01", "2026-13-45", "today"] : known.ids);
  const schema = op.requestBody?.content["application/json"]?.schema;
  return fc
    .record({
      segments: fc.tuple(...pathNames.map((n) => segment(knownFor(n)))),
      query: query(params),
      method: fc.oneof({ weight: 8, arbitrary: fc.constant(method.toUpperCase()) }, { weight: 2, arbitrary: fc.constantFrom(...methods) }),
      withBody: schema ? fc.constant(true) : fc.boolean(),
      body: bodyText(schema),
      auth: authHeader(known.tokens),
      accept: acceptHeader,
      forwardedFor: fc.option(fc.constantFrom("1.2.3.4", "::1", "garbage", "1.2.3.4, 5.6.7.8", "2001:db8::1"), { nil: undefined }),
    })
    .chain((r) => {
      let i = 0;
      const path = template.replace(/\{\w+\}/g, () => r.segments[i++]!) + r.query;
      const base: Record<string, string> = {};
      if (r.auth !== undefined) base.authorization = r.auth;
      if (r.accept !== undefined) base.accept = r.accept;
      if (r.forwardedFor !== undefined) base["x-forwarded-for"] = r.forwardedFor;
      const target = `${method.toUpperCase()} ${template}`;
      if (!r.withBody || r.method === "GET" || r.method === "HEAD") return fc.constant<FuzzRequest>({ method: r.method, path, headers: base, target });
      return bodyHeaders(r.body).map(({ headers, body, withLength }) => ({ method: r.method, path, headers: { ...base, ...headers }, body, withLength, target }));
    });
}

/** Routes the document does not describe: raw endpoints, objects, health, the front end. */
function otherRequests(known: Known): fc.Arbitrary<FuzzRequest> {
  const code = segment(known.codes);
  const objectName = fc.oneof(
    fc.constantFrom(
      "../../package.json",
      "..%2f..%2fpackage.json",
      "%2e%2e/%2e%2e/package.json",
      "a/../../../etc/passwd",
      "..\\..\\package.json",
      "%00.png",
      "x%2F..%2F..%2F.data",
      "./.",
      "",
      "a//b",
      `${"n".repeat(300)}.png`,
    ),
    fc.array(segment([...known.codes.map((c) => `${c}.png`)]), { minLength: 1, maxLength: 4 }).map((s) => s.join("/")),
  );
  return fc.oneof<fc.Arbitrary<FuzzRequest>[]>(
    code.chain((c) => fc.record({ m: fc.constantFrom("GET", "GET", "HEAD", "POST", "DELETE"), accept: acceptHeader }).map(({ m, accept }) => ({ method: m, path: `/${c}`, headers: accept ? { accept } : ({} as Record<string, string>), target: "GET /:code" }))),
    fc.tuple(fc.constantFrom("qr-codes", "nope", "..", "%2e%2e", "QR-CODES"), objectName, fc.constantFrom("GET", "HEAD", "PUT", "DELETE", "POST"), fc.constantFrom("", "?expires=1&signature=x", "?expires=99999999999&signature=" + "0".repeat(64), "?signature=%zz"), fc.uint8Array({ maxLength: 100 }))
      .map(([bucket, name, m, q, bytes]) => ({ method: m, path: `/objects/${bucket}/${name}${q}`, headers: m === "PUT" ? { "content-type": "image/png" } : ({} as Record<string, string>), body: m === "PUT" ? () => Buffer.from(bytes) : undefined, withLength: true, target: `${m} /objects/:bucket/*name` })),
    fc.constantFrom("/healthz", "/openapi.json", "/", "/_app/", "/_app/../../package.json", "/_app/%2e%2e/%2e%2e/package.json", "/index.html", "/__encore/pubsub", "/__encore/healthz", "//", "/%", "/%zz/stats", "/a/b/c/d", "/*", "/?q=%zz").chain((p) => fc.constantFrom("GET", "HEAD", "OPTIONS", "POST").map((m): FuzzRequest => ({ method: m, path: p, headers: {}, target: "other routes" }))),
  );
}

/** Requests broken at the HTTP level, written on a socket as they are (Node's client would refuse them). */
function rawRequests(known: Known): fc.Arbitrary<FuzzRequest> {
  const code = known.codes[0]!;
  const crlf = (lines: string[], body = "") => Buffer.concat([Buffer.from(lines.join("\r\n") + "\r\n\r\n", "latin1"), Buffer.from(body)]);
  const cases: Buffer[] = [
    crlf(["POST /shorten HTTP/1.1", "Host: x", "Content-Length: 5", "Transfer-Encoding: chunked"], "0\r\n\r\n"),
    crlf(["POST /shorten HTTP/1.1", "Host: x", "Content-Length: 5", "Content-Length: 6"], "{}{}{}"),
    crlf(["POST /shorten HTTP/1.1", "Host: x", "Content-Length: -1"], "{}"),
    crlf(["POST /shorten HTTP/1.1", "Host: x", "Transfer-Encoding: chunked"], "zz\r\n{}\r\n0\r\n\r\n"),
    crlf(["POST /shorten HTTP/1.1", "Host: x", "Transfer-Encoding: gzip, chunked", "Content-Type: application/json"], "2\r\n{}\r\n0\r\n\r\n"),
    crlf(["POST /shorten HTTP/1.1", "Host: x", "Content-Type: application/json", "Content-Length: 100"], '{"url":"https://a.example"}'),
    crlf(["POST /shorten HTTP/1.1", "Host: x", "Content-Type: application/json", "Content-Encoding: gzip", "Content-Length: 4"], "\x1f\x8b\x08\x00"),
    Buffer.concat([Buffer.from("GET /"), Buffer.from([0xc3, 0xbc]), Buffer.from(" HTTP/1.1\r\nHost: x\r\n\r\n")]),
    Buffer.concat([Buffer.from("GET /"), Buffer.from([0xff, 0xfe]), Buffer.from("/stats HTTP/1.1\r\nHost: x\r\n\r\n")]),
    Buffer.from(`GET /${code}/stats HTTP/1.1\r\nHost: x\r\nX-Bad: a\x00b\r\n\r\n`, "latin1"),
    Buffer.from(`GET /${code} HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n`, "latin1"),
    Buffer.from(`GET /${code} HTTP/1.1\r\nHost: x\r\nX-Long: ${"a".repeat(20_000)}\r\n\r\n`, "latin1"),
    Buffer.from(`GET /${code} HTTP/1.0\r\n\r\n`, "latin1"),
    Buffer.from(`GET /${code} HTTP/9.9\r\nHost: x\r\n\r\n`, "latin1"),
    Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1"),
    Buffer.from(`GET /${code}\r\n\r\n`, "latin1"),
    Buffer.from("\r\n\r\n\r\n", "latin1"),
    Buffer.from(`FOO /${code} HTTP/1.1\r\nHost: x\r\n\r\n`, "latin1"),
    Buffer.from(`GET http://evil.example/${code} HTTP/1.1\r\nHost: evil.example\r\n\r\n`, "latin1"),
    Buffer.from(`GET /../../../package.json HTTP/1.1\r\nHost: x\r\n\r\n`, "latin1"),
    Buffer.from(`GET /objects/qr-codes/../../../package.json HTTP/1.1\r\nHost: x\r\n\r\n`, "latin1"),
    Buffer.from(`GET /_app/../../package.json HTTP/1.1\r\nHost: x\r\n\r\n`, "latin1"),
    Buffer.from(`POST /users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json; charset=utf-16le\r\nContent-Length: 4\r\n\r\n{\x00}\x00`, "latin1"),
  ];
  return fc.constantFrom(...cases).map((raw) => ({ method: "RAW", path: raw.subarray(0, raw.indexOf(" HTTP") > 0 ? raw.indexOf(" HTTP") : 20).toString("latin1"), headers: {}, raw, target: "raw socket" }));
}

/**
 * Operations that hash a password (scrypt, tens of milliseconds of CPU each, by design) get
 * half the share of the others, so that 10,000 requests stay within the suite's minutes.
 */
const passwordHashing = (template: string, method: string) =>
  (template === "/auth/login" && method === "post") || (template === "/users" && method === "post") || (template === "/users/{id}" && method === "put");

/** Every kind of request, weighted so each operation gets its share. */
export function fuzzRequests(doc: OpenApi, known: Known): fc.Arbitrary<FuzzRequest> {
  const operations = Object.entries(doc.paths).flatMap(([template, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ weight: passwordHashing(template, method) ? 2 : 4, arbitrary: operationRequests(template, method, op, known) })),
  );
  return fc.oneof(...operations, { weight: 12, arbitrary: otherRequests(known) }, { weight: 2, arbitrary: rawRequests(known) });
}
