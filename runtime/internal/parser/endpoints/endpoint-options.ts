import ts from "typescript";
import type { EndpointKind } from "../../meta/types.ts";
import { errorAt } from "../program/errors.ts";
import { literalValue, NOT_LITERAL, propertyNameOf, type LiteralValue } from "../program/literals.ts";

/** The literal options object of api(), api.raw(), api.static() or api.stream*(), checked but not yet defaulted. */
export interface EndpointOptions {
  readonly values: Readonly<Record<string, LiteralValue>>;
  /** The node of each option, to point errors at it. */
  readonly nodes: Readonly<Record<string, ts.Node>>;
}

export const HTTP_METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "CONNECT"];

type Check = (value: LiteralValue) => string | undefined;

const isBoolean: Check = (v) => (typeof v === "boolean" ? undefined : "must be true or false");
const isString: Check = (v) => (typeof v === "string" ? undefined : "must be a string");
const isStatus: Check = (v) =>
  typeof v === "number" && Number.isInteger(v) && v >= 100 && v <= 599 ? undefined : "must be an HTTP status code";

const isBodyLimit: Check = (v) =>
  v === null || (typeof v === "number" && Number.isInteger(v) && v >= 0) ? undefined : "must be a non-negative integer or null";

const isStringList: Check = (v) =>
  Array.isArray(v) && v.every((item) => typeof item === "string") ? undefined : "must be an array of strings";

const isMethod: Check = (v) => {
  const methods = typeof v === "string" ? [v] : v;
  if (!Array.isArray(methods) || methods.length === 0) return `must be a method, an array of methods or "*"`;
  for (const method of methods) {
    if (typeof method !== "string" || !(method === "*" || HTTP_METHODS.includes(method.toUpperCase()))) {
      return `has unknown method ${JSON.stringify(method)}`;
    }
  }
  return undefined;
};

const isHeaderMap: Check = (v) => {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return "must be an object of header names to values";
  const valid = Object.values(v).every(
    (item) => typeof item === "string" || (Array.isArray(item) && item.every((part) => typeof part === "string")),
  );
  return valid ? undefined : "values must be strings or arrays of strings";
};

const API_OPTIONS: Readonly<Record<string, Check>> = {
  method: isMethod,
  path: isString,
  expose: isBoolean,
  auth: isBoolean,
  bodyLimit: isBodyLimit,
  tags: isStringList,
  sensitive: isBoolean,
};

// StreamOptions: no method (a stream's handshake is always a GET) and no bodyLimit (there is no body).
const STREAM_OPTIONS: Readonly<Record<string, Check>> = {
  path: isString,
  expose: isBoolean,
  auth: isBoolean,
  tags: isStringList,
  sensitive: isBoolean,
};

const STATIC_OPTIONS: Readonly<Record<string, Check>> = {
  path: isString,
  expose: isBoolean,
  auth: isBoolean,
  dir: isString,
  notFound: isString,
  notFoundStatus: isStatus,
  headers: isHeaderMap,
};

/** Reads the options argument; every option must be a literal so it is known without running the app. */
export function readEndpointOptions(
  appRoot: string,
  argument: ts.Expression | undefined,
  kind: EndpointKind,
  endpoint: string,
  callNode: ts.Node,
): EndpointOptions {
  if (!argument || !ts.isObjectLiteralExpression(argument)) {
    throw errorAt(appRoot, argument ?? callNode, `the options of endpoint ${endpoint} must be an object literal`);
  }
  const checks = kind === "static" ? STATIC_OPTIONS : kind === "stream" ? STREAM_OPTIONS : API_OPTIONS;
  const values: Record<string, LiteralValue> = {};
  const nodes: Record<string, ts.Node> = {};
  for (const member of argument.properties) {
    const name = propertyNameOf(member);
    if (name === undefined || !ts.isPropertyAssignment(member)) {
      throw errorAt(appRoot, member, `option \`${member.getText()}\` of endpoint ${endpoint} must be written as \`name: literal\``);
    }
    const check = checks[name];
    if (!check) throw errorAt(appRoot, member, `unknown option "${name}" of endpoint ${endpoint}`);
    const value = literalValue(member.initializer);
    if (value === NOT_LITERAL) {
      throw errorAt(
        appRoot,
        member,
        `option "${name}" of endpoint ${endpoint} must be a literal value, not \`${member.initializer.getText()}\``,
      );
    }
    const problem = check(value);
    if (problem) throw errorAt(appRoot, member, `option "${name}" of endpoint ${endpoint} ${problem}`);
    values[name] = value;
    nodes[name] = member;
  }
  if (kind === "static" && values["dir"] === undefined) {
    throw errorAt(appRoot, argument, `static endpoint ${endpoint} needs a "dir" option`);
  }
  return { values, nodes };
}

/** Upper-case methods with Encore's defaults: POST for typed endpoints, any for raw ones, GET for streams. */
export function methodsOf(options: EndpointOptions, kind: EndpointKind): string[] {
  const given = options.values["method"];
  if (given === undefined) {
    if (kind === "raw") return ["*"];
    // Static files are only ever fetched.
    if (kind === "static") return ["GET", "HEAD"];
    // The WebSocket handshake.
    if (kind === "stream") return ["GET"];
    return ["POST"];
  }
  const list = (typeof given === "string" ? [given] : (given as string[])).map((method) => method.toUpperCase());
  if (list.includes("*")) return ["*"];
  return [...new Set(list)];
}
