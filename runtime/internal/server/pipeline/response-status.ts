import type { FastifyReply } from "fastify";
import fastJson from "fast-json-stringify";
import { APIError } from "../../errors/api-error.ts";
import type { JSONSchema } from "../../meta/types.ts";
import { serializerSchema } from "./response-schema.ts";

/** Sets the answer's status from the handler's result, when its HttpStatus field holds one. */
export interface ResponseStatusStep {
  apply(reply: FastifyReply, result: unknown): void;
}

/**
 * The step for an endpoint with an `HttpStatus` field; null without one. The body keeps its
 * serializer (the route's schema is for 200 only): the field itself is not in `bodySchema`.
 */
export function compileResponseStatusStep(field: string | undefined, bodySchema: JSONSchema): ResponseStatusStep | null {
  const statusOf = compileResponseStatus(field);
  if (statusOf === null) return null;
  const serialize = fastJson(serializerSchema(bodySchema)) as (value: unknown) => string;
  return {
    apply(reply, result) {
      const status = statusOf(result);
      if (status === undefined) return;
      // A reply with its own serializer gets no content type from Fastify.
      void reply.code(status).type("application/json; charset=utf-8").serializer(serialize);
    },
  };
}

/**
 * A typed endpoint's `HttpStatus` response field (EndpointMeta.httpStatusField): the status
 * Encore answers with, checked as Encore checks it (runtimes/core/src/api/schema/httpstatus.rs);
 * undefined when the field is absent, which leaves the status as it was.
 */
export function compileResponseStatus(field: string | undefined): ((result: unknown) => number | undefined) | null {
  if (field === undefined) return null;
  return (result) => {
    if (result === null || typeof result !== "object") return undefined;
    const value = (result as Record<string, unknown>)[field];
    if (value === undefined) return undefined;
    if (typeof value !== "number") {
      throw invalidStatus(`HTTP status field '${field}' must be a number, got: ${typeNameOf(value)}`);
    }
    if (!Number.isInteger(value) || value < 0) throw invalidStatus(`HTTP status field '${field}' must be a positive integer`);
    // Encore's words, "a between", kept as they are: clients may compare them.
    if (value < 100 || value > 599) throw invalidStatus(`HTTP status field '${field}' must be a between 100 and 599, got: ${value}`);
    return value;
  };
}

function invalidStatus(why: string): APIError {
  return APIError.invalidArgument(`invalid http status code: ${why}`);
}

// PValue::type_name's words for the value as it would be sent.
function typeNameOf(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string" || typeof value === "boolean") return typeof value === "string" ? "string" : "boolean";
  if (value instanceof Date) return "datetime";
  if (Array.isArray(value)) return "array";
  return "object";
}
