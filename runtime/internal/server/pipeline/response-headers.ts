import type { FastifyReply } from "fastify";
import { validateHeaderValue } from "node:http";
import { responseBodySchema } from "../../meta/response-body.ts";
import type { JSONSchema, ResponseHeaderField } from "../../meta/types.ts";

/**
 * A typed endpoint's `Header<...>` response fields: Encore sends each as a response header
 * and leaves it out of the JSON body. A field left undefined (or null) sends no header.
 */
export interface ResponseHeaderStep {
  /** The response schema without the header fields, for the body's serializer. */
  readonly bodySchema: JSONSchema;
  /** Sets the headers from the handler's result; throws (an internal error) on a value no header can carry. */
  apply(reply: FastifyReply, result: unknown): void;
}

export function compileResponseHeaders(response: JSONSchema, fields: readonly ResponseHeaderField[] | undefined): ResponseHeaderStep | null {
  if (!fields || fields.length === 0) return null;
  const bodySchema = responseBodySchema(response, fields);
  return {
    bodySchema,
    apply(reply, result) {
      if (result === null || typeof result !== "object") return;
      for (const field of fields) {
        const value = (result as Record<string, unknown>)[field.name];
        if (value === undefined || value === null) continue;
        const text = String(value);
        try {
          validateHeaderValue(field.wireName, text);
        } catch (err) {
          throw new Error(`the response field "${field.name}" is not a valid ${field.wireName} header`, { cause: err });
        }
        void reply.header(field.wireName, text);
      }
    },
  };
}
