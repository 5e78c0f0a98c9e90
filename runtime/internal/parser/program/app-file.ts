import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { ParseError } from "./errors.ts";

/**
 * The app's ID from encore.app (JSON with comments, as Encore writes it): the Encore
 * Cloud app it is linked to, or "" when it is not linked or has no encore.app.
 */
export function readAppId(appRoot: string): string {
  const file = path.join(appRoot, "encore.app");
  if (!fs.existsSync(file)) return "";
  const { config, error } = ts.parseConfigFileTextToJson(file, fs.readFileSync(file, "utf8"));
  if (error) throw new ParseError(`encore.app: ${ts.flattenDiagnosticMessageText(error.messageText, "\n")}`, "encore.app");
  const id: unknown = (config as { id?: unknown } | undefined)?.id;
  if (id === undefined) return "";
  if (typeof id !== "string") throw new ParseError(`encore.app: "id" must be a string, got ${JSON.stringify(id)}`, "encore.app");
  return id;
}
