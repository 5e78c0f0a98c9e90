import { describe, expect, it } from "vitest";
import { fixture, lineOf, parseError, withoutRefs } from "../../../test/parser-fixtures.ts";
import { parseApp } from "../mod.ts";

describe("the auth handler", () => {
  it("is read with its Header and Query parameters, its AuthData and the Gateway that runs it", () => {
    const root = fixture("auth-handler/valid");
    expect(withoutRefs(parseApp(root).auth)).toEqual({
      service: "gate",
      name: "auth",
      exportName: "auth",
      file: "gate/auth.ts",
      line: lineOf(root, "gate/auth.ts", "export const auth"),
      params: {
        fields: [
          { name: "authorization", location: "header", wireName: "authorization", optional: true },
          { name: "token", location: "query", wireName: "access_token", optional: true },
          { name: "version", location: "header", wireName: "x-auth-version", optional: true },
        ],
        path: null,
        query: { type: "object", properties: { access_token: { type: "string" } } },
        headers: {
          type: "object",
          properties: { authorization: { type: "string", description: "`Bearer <token>`" }, "x-auth-version": { type: "number" } },
        },
        body: null,
        full: {
          type: "object",
          properties: { authorization: { type: "string", description: "`Bearer <token>`" }, token: { type: "string" }, version: { type: "number" } },
        },
      },
      authData: {
        type: "object",
        properties: {
          userID: { type: "string" },
          email: { type: "string" },
          expires: { type: "string", format: "date-time", "x-encore-type": "date" },
        },
        required: ["userID", "email"],
      },
      gateway: { file: "gate/gateway.ts", line: lineOf(root, "gate/gateway.ts", "new Gateway") },
    });
  });

  it("is read from the function's own types when no type arguments are given", () => {
    const auth = parseApp(fixture("auth-handler/inferred")).auth;
    expect(auth?.params.fields).toEqual([{ name: "key", location: "header", wireName: "x-api-key", optional: false }]);
    expect(auth?.authData).toEqual({
      type: "object",
      properties: { userID: { type: "string" }, scopes: { type: "array", items: { type: "string" } } },
      required: ["userID", "scopes"],
    });
  });

  it("may be left unexported: the runtime reaches it through the Gateway", () => {
    const root = fixture("auth-handler/not-exported");
    expect(parseApp(root).auth).toMatchObject({ name: "auth", exportName: null, file: "gate/auth.ts", line: lineOf(root, "gate/auth.ts", "const auth") });
  });

  it("is known by the name its module exports it under, for generated code to import its type", () => {
    expect(parseApp(fixture("auth-handler/export-alias")).auth).toMatchObject({ name: "auth", exportName: "verify" });
  });

  it("may be written inline in the Gateway's options, named after the Gateway's variable as in Encore", () => {
    const root = fixture("auth-handler/inline");
    expect(parseApp(root).auth).toMatchObject({
      service: "gate",
      name: "gateway",
      exportName: null,
      file: "gate/gateway.ts",
      line: lineOf(root, "gate/gateway.ts", "authHandler: authHandler"),
      params: { fields: [{ name: "authorization", location: "header", wireName: "authorization", optional: false }] },
      gateway: { file: "gate/gateway.ts", line: lineOf(root, "gate/gateway.ts", "new Gateway") },
    });
  });

  it("makes its folder a service when no encore.service.ts covers it, as Encore does", () => {
    expect(parseApp(fixture("auth-handler/no-service-file")).auth?.service).toBe("lib");
  });

  it("is null for an app without one", () => {
    expect(parseApp(fixture("resources")).auth).toBeNull();
  });
});

interface Case {
  readonly fixture: string;
  readonly file: string;
  /** Text on the line the error must point at. */
  readonly at: string;
  readonly message: string;
}

const CASES: readonly Case[] = [
  {
    fixture: "two-handlers",
    file: "gate/other.ts",
    at: "export const second",
    message: "auth handler second clashes with auth handler first at gate/auth.ts:8: an app has at most one auth handler",
  },
  {
    fixture: "unbound",
    file: "gate/gateway.ts",
    at: "authHandler: authHandler",
    message: "an auth handler must be bound to a variable: `const name = authHandler(...)`",
  },
  {
    fixture: "plain-field",
    file: "gate/auth.ts",
    at: "session: string;",
    message: 'field "session" of AuthParams must be a Header<...>, Query<...> or Cookie<...>: an auth handler reads only headers, the query string and cookies',
  },
  {
    fixture: "no-params",
    file: "gate/auth.ts",
    at: "export const auth",
    message: 'auth handler auth reads no header, query parameter or cookie, so it would never run: declare one, e.g. authorization: Header<"Authorization">',
  },
  {
    fixture: "no-user-id",
    file: "gate/auth.ts",
    at: "export const auth",
    message: 'the auth data of auth handler auth must be an object type with a `userID: string` field, not "Session"',
  },
  {
    fixture: "optional-user-id",
    file: "gate/auth.ts",
    at: "export const auth",
    message: 'the auth data of auth handler auth must be an object type with a `userID: string` field, not "{ userID?: string | undefined; }"',
  },
  {
    fixture: "not-attached",
    file: "gate/auth.ts",
    at: "export const auth",
    message: "auth handler auth is not attached to a Gateway, so it would never run: add `export const gateway = new Gateway({ authHandler: auth })`",
  },
  {
    fixture: "wrong-gateway-handler",
    file: "gate/auth.ts",
    at: "authHandler: lookalike",
    message: "the authHandler of the Gateway must be the app's auth handler: a variable holding `authHandler(...)`, or the call itself",
  },
  {
    fixture: "two-gateways",
    file: "gate/more.ts",
    at: "new Gateway",
    message: "a Gateway is already declared at gate/auth.ts:6: an app has one Gateway",
  },
];

describe("auth handlers the runtime refuses, naming file and line", () => {
  it.each(CASES)("$fixture", (testCase) => {
    const root = fixture(`auth-handler/${testCase.fixture}`);
    const line = lineOf(root, testCase.file, testCase.at);
    const error = parseError(root);
    expect(error.message).toBe(`${testCase.file}:${line}: ${testCase.message}`);
    expect([error.file, error.line]).toEqual([testCase.file, line]);
  });
});
