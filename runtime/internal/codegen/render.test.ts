import { describe, expect, test } from "vitest";
import type { AppMeta, AuthHandlerMeta } from "../meta/types.ts";
import { renderAuth, renderHandlers } from "./render.ts";

const auth = {
  service: "auth",
  name: "auth",
  exportName: "auth",
  file: "auth/gateway.ts",
  line: 3,
  params: { fields: [], path: null, query: null, headers: null, body: null, full: { type: "object" } },
  authData: { type: "object" },
  gateway: { file: "auth/gateway.ts", line: 9 },
} satisfies AuthHandlerMeta;

const app = (withAuth: boolean, handler: AuthHandlerMeta = auth): AppMeta => ({
  version: 9,
  appId: "",
  services: [{ name: "auth", dir: "auth", serviceFile: "auth/encore.service.ts", doc: null, endpoints: [], calls: [] }],
  databases: [],
  secrets: [],
  topics: [],
  subscriptions: [],
  cronJobs: [],
  buckets: [],
  caches: [],
  auth: withAuth ? handler : null,
  metrics: [],
});

describe("~encore/auth", () => {
  test("types getAuthData() with what the auth handler resolves to, and lets calls pass authData", () => {
    const { path, content } = renderAuth(app(true));
    expect(path).toBe("auth/index.ts");
    expect(content).toContain('import type { auth as authHandler } from "../../auth/gateway";');
    expect(content).toContain("export type AuthData = NonNullable<Awaited<ReturnType<typeof authHandler>>>;");
    expect(content).toContain("return currentAuthData<AuthData>();");
    expect(content).toMatch(/declare module "encore\.dev\/api" \{\s+interface CallOpts \{\s+authData\?: AuthData;/);
  });

  test("an auth handler its module does not export gets its AuthData written out from its schema", () => {
    const authData = {
      type: "object",
      properties: {
        userID: { type: "string" },
        roles: { type: "array", items: { type: "string", enum: ["admin", "user"] } },
        expires: { type: "string", format: "date-time", "x-encore-type": "date" },
        team: { anyOf: [{ type: "object", properties: { id: { type: "number" } }, required: ["id"] }, { type: "null" }] },
      },
      required: ["userID", "team"],
    };
    const { content } = renderAuth(app(true, { ...auth, exportName: null, authData }));
    expect(content).not.toContain("import type");
    expect(content).toContain('export type AuthData = { "userID": string; "roles"?: Array<"admin" | "user">; "expires"?: Date; "team": { "id": number } | null };');
  });

  test("without an auth handler, AuthData is null and so is getAuthData()", () => {
    const { content } = renderAuth(app(false));
    expect(content).toContain("export type AuthData = null;");
    expect(content).toContain("return null;");
    expect(content).not.toContain("import");
  });
});

describe("the handler map", () => {
  test("imports the module that constructs the Gateway, which hands the runtime the auth handler", () => {
    const { content } = renderHandlers(app(true, { ...auth, file: "auth/handler.ts", exportName: null }));
    expect(content).toContain('import "../../auth/gateway";');
    expect(content).not.toContain("handler.ts");
    expect(renderHandlers(app(false)).content).not.toContain("gateway");
  });

  test("imports each service's encore.service.ts and reads the middlewares its Service holds", () => {
    const { content } = renderHandlers({ ...app(false), services: [{ name: "auth", dir: "auth", serviceFile: "auth/encore.service.ts", doc: null, endpoints: [], calls: [] }, { name: "root", dir: ".", serviceFile: "encore.service.ts", doc: null, endpoints: [], calls: [] }, { name: "legacy", dir: "legacy", serviceFile: null, doc: null, endpoints: [], calls: [] }] });
    expect(content).toContain('import * as auth_encore_service from "../../auth/encore.service";');
    expect(content).toContain('import * as encore_service from "../../encore.service";');
    expect(content).toMatch(/export const middlewares: Record<string, unknown> = \{\n {2}"auth": auth_encore_service\.default\.cfg\.middlewares,\n {2}"root": encore_service\.default\.cfg\.middlewares,\n {2}"legacy": undefined,\n\};/);
  });
});
