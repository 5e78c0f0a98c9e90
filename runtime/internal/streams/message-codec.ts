import secureJson from "secure-json-parse";
import { APIError, withPrivateCause } from "../errors/api-error.ts";
import type { JSONSchema } from "../meta/types.ts";
import { compileDateReviver } from "../validation/dates.ts";
import { compileValidator, describeValidationErrors } from "../validation/ajv.ts";
import type { StreamMessage } from "./transport.ts";

/** Turns one message's text into the object its receiver's type declares, or throws invalid_argument. */
export type MessageDecoder = (text: string) => StreamMessage;

/**
 * Compiled once per schema at boot: parses the JSON (a prototype-poisoning key is refused,
 * as for request bodies), validates it strictly and turns date-time strings into Dates
 * where the message type says Date.
 */
export function compileMessageDecoder(schema: JSONSchema): MessageDecoder {
  const validate = compileValidator(schema, "message");
  const revive = compileDateReviver(schema);
  return (text) => {
    let data: unknown;
    try {
      data = secureJson.parse(text, undefined, { protoAction: "error", constructorAction: "error" });
    } catch (err) {
      throw withPrivateCause(APIError.invalidArgument("the message is not valid JSON", err as Error));
    }
    if (!validate(data)) {
      throw APIError.invalidArgument(describeValidationErrors(validate.errors, "message", data));
    }
    return (revive ? revive(data) : data) as StreamMessage;
  };
}

/** Messages are sent as JSON text; Dates become ISO strings, as in responses. */
export function encodeMessage(message: StreamMessage): string {
  return JSON.stringify(message);
}
