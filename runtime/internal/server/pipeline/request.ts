import type { ValidateFunction } from "ajv";
import type { IncomingMessage } from "node:http";
import { APIError } from "../../errors/api-error.ts";
import type { EndpointMeta, FieldLocation, JSONSchema, RequestMeta } from "../../meta/types.ts";
import { compileDateReviver, datesAsText } from "../../validation/dates.ts";
import { compileValidator, describeValidationErrors } from "../../validation/ajv.ts";
import { settleForwardedFor } from "./client-address.ts";
import { compileCookieDecoder } from "./request-cookies.ts";

type Source = Record<string, unknown>;

/** What arrived over HTTP, split by where it came from. */
export interface RawParts {
  readonly path: Source;
  readonly query: Source;
  readonly headers: Source;
  readonly body: unknown;
}

interface Part {
  readonly location: Exclude<FieldLocation, "cookie">;
  readonly validate: ValidateFunction;
  readonly revive: ((v: unknown) => unknown) | null;
  /** [wire name, parameter name] of each field from this location. */
  readonly fields: readonly (readonly [string, string])[];
}

/**
 * Compiles, at boot, the function that validates one endpoint's request and
 * builds the handler's parameter object. Only locations the endpoint reads are
 * checked; validators and date revivers are built here, never per request.
 */
export function compileRequestDecoder(meta: RequestMeta): (raw: RawParts) => Source {
  const parts: Part[] = [];
  const add = (location: Part["location"], schema: JSONSchema | null) => {
    if (!schema) return;
    const fields = meta.fields.filter((f) => f.location === location).map((f) => [f.wireName, f.name] as const);
    parts.push({ location, validate: compileValidator(schema, location), revive: compileDateReviver(schema), fields });
  };
  add("body", meta.body);
  add("query", meta.query);
  add("header", meta.headers);
  add("path", meta.path); // last: a path parameter wins over a body field of the same name
  const cookieFields = meta.fields.filter((f) => f.location === "cookie").map((f) => [f.wireName, f.name] as const);
  const cookies = meta.cookies ? compileCookieDecoder(meta.cookies, cookieFields) : null;

  const pick = { body: (r: RawParts) => r.body, query: (r: RawParts) => r.query, header: (r: RawParts) => r.headers, path: (r: RawParts) => r.path };
  return (raw) => {
    const params: Source = {};
    for (const part of parts) {
      const data = pick[part.location](raw);
      if (!part.validate(data)) throw invalid(part.validate, part.location, data);
      const value = (part.revive ? part.revive(data) : data) as Source;
      for (const [wire, name] of part.fields) if (value[wire] !== undefined) params[name] = value[wire];
    }
    if (cookies) Object.assign(params, cookies(raw.headers));
    return params;
  };
}

/**
 * An HTTP request's step from its parts to the handler's parameters, compiled at boot for
 * both lanes that serve typed endpoints (Fastify's and the fast one); null when the endpoint
 * takes no request. An endpoint that reads X-Forwarded-For gets it settled first, by TRUST_PROXY.
 */
export function compileParamsStep(meta: EndpointMeta, trustProxy: boolean): ((req: IncomingMessage, parts: RawParts) => Source) | null {
  if (!meta.request) return null;
  const decode = compileRequestDecoder(meta.request);
  const readsForwardedFor = meta.request.fields.some((f) => f.location === "header" && f.wireName === "x-forwarded-for");
  return (req, parts) => {
    if (readsForwardedFor) settleForwardedFor(req, trustProxy);
    return decode(parts);
  };
}

/** Validator for a whole parameter object, for calls between services. */
export function compileCallValidator(meta: RequestMeta): (params: unknown) => unknown {
  const validate = compileValidator(meta.full, "call");
  const revive = compileDateReviver(meta.full);
  if (!revive) {
    return (params) => {
      if (!validate(params)) throw invalid(validate, "call", params);
      return params;
    };
  }
  return (params) => {
    const input = datesAsText(params);
    if (!validate(input)) throw invalid(validate, "call", input);
    return revive(input);
  };
}

function invalid(validate: ValidateFunction, location: FieldLocation | "call", data: unknown): APIError {
  return APIError.invalidArgument(describeValidationErrors(validate.errors, location, data));
}
