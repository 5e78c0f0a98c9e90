import { describe, expect, test } from "vitest";
import type { AppMeta, AuthHandlerMeta } from "../meta/types.ts";
import { renderAuth, renderHandlers } from "./render.ts";

const auth = {
  service: "auth",
  name: "auth",
  file: "auth/gateway.ts",
  line: 3,
  params: { fields: [], path: null, query: null, headers: null, body: null, full: { type: "object" } },
  authData: { type: "object" },
  gateway: { file: "auth/gateway.ts", line: 9 },
} satisfies AuthHandlerMeta;

const app = (withAuth: boolean): AppMeta => ({
  version: 4,
  appId: "",
  services: [{ name: "auth", dir: "auth", endpoints: [] }],
  databases: [],
  secrets: [],
  topics: [],
  subscriptions: [],
  cronJobs: [],
  buckets: [],
  auth: withAuth ? auth : null,
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

  test("without an auth handler, AuthData is null and so is getAuthData()", () => {
    const { content } = renderAuth(app(false));
    expect(content).toContain("export type AuthData = null;");
    expect(content).toContain("return null;");
    expect(content).not.toContain("import");
  });
});

describe("the handler map", () => {
  test("imports the auth handler's module and exposes the handler", () => {
    const { content } = renderHandlers(app(true));
    expect(content).toContain('import * as auth_gateway from "../../auth/gateway";');
    expect(content).toContain("export const authHandler: unknown = auth_gateway.auth;");
    expect(renderHandlers(app(false)).content).toContain("export const authHandler: unknown = null;");
  });

  test("imports each service's encore.service.ts and reads the middlewares its Service holds", () => {
    const { content } = renderHandlers({ ...app(false), services: [{ name: "auth", dir: "auth", endpoints: [] }, { name: "root", dir: ".", endpoints: [] }] });
    expect(content).toContain('import * as auth_encore_service from "../../auth/encore.service";');
    expect(content).toContain('import * as encore_service from "../../encore.service";');
    expect(content).toMatch(/export const middlewares: Record<string, unknown> = \{\n {2}"auth": auth_encore_service\.default\.cfg\.middlewares,\n {2}"root": encore_service\.default\.cfg\.middlewares,\n\};/);
  });
});
