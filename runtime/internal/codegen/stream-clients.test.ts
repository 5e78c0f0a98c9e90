// The ~encore/clients functions of stream endpoints, generated for the streaming fixture app
// and compiled twice with a caller: against the real encore.dev package (as `encore run`
// sees the app) and against this runtime's surface. Both must accept what a caller does.
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { appRoot } from "../config/app-root.ts";
import { fixture } from "../../test/parser-fixtures.ts";
import { parseApp } from "../parser/mod.ts";
import { renderAuth, renderClients } from "./render.ts";

const caller = `
import { chat } from "~encore/clients";

export async function callers(): Promise<void> {
  const echo = await chat.internalEcho({ prefix: ">" });
  await echo.send({ text: "x" });
  const echoed: { text: string; seq: number } = await echo.recv();
  for await (const message of echo) void message.seq;
  const upload = await chat.upload();
  await upload.send({ text: "y", at: new Date() });
  const summary: { count: number; texts: string[] } = await upload.response();
  const ticks = await chat.ticks({ room: "r", limit: 1, nick: "n" });
  for await (const tick of ticks) void tick.n;
  // @ts-expect-error a stream the endpoint only sends on cannot be sent to
  await ticks.send({});
  // @ts-expect-error the handshake's fields are required
  await chat.ticks({ room: "r" });
  void echoed;
  void summary;
}
`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "stream-clients-"));
  cpSync(fixture("streams/app"), dir, { recursive: true });
  cpSync(fixture("streams/tsconfig.json"), path.join(dir, "tsconfig.json")); // in place of the one that extends it
  symlinkSync(path.join(appRoot, "node_modules"), path.join(dir, "node_modules"));
  const meta = parseApp(dir);
  for (const file of [...renderClients(meta), renderAuth(meta)]) {
    const target = path.join(dir, "encore.gen", file.path);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, file.content);
  }
  appendFileSync(path.join(dir, "chat/streams.ts"), caller);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function diagnostics(encoreDev: Record<string, string[]>): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2022.d.ts", "lib.esnext.disposable.d.ts"],
    types: ["node"],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    baseUrl: dir,
    paths: { "~encore/*": ["./encore.gen/*"], ...encoreDev },
  };
  const program = ts.createProgram({ rootNames: [path.join(dir, "chat/streams.ts")], options });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe("~encore/clients for stream endpoints", () => {
  test("type-check a caller against the real encore.dev package", () => {
    expect(diagnostics({})).toEqual([]);
  });

  test("type-check the same caller against the runtime's encore.dev surface", () => {
    const surface = path.join(appRoot, "runtime/encore.dev");
    expect(diagnostics({ "encore.dev": [`${surface}/mod.ts`], "encore.dev/*": [`${surface}/*/mod.ts`] })).toEqual([]);
  });
});
