import ts from "typescript";
import type { JSONSchema, PathParam, RequestMeta, StreamMeta } from "../../meta/types.ts";
import { errorAt } from "../program/errors.ts";
import type { AppProgram } from "../program/program.ts";
import { buildRequest, checkNoPathParams } from "./request.ts";
import { buildResponse } from "./response.ts";
import { typeName, type SchemaBuilder } from "../schema/schema.ts";

export type StreamConstructor = "streamIn" | "streamOut" | "streamInOut";

export const STREAM_CONSTRUCTORS: ReadonlySet<string> = new Set<StreamConstructor>(["streamIn", "streamOut", "streamInOut"]);

export interface StreamInput {
  readonly factory: StreamConstructor;
  readonly call: ts.CallExpression;
  /** "service.endpoint", for messages. */
  readonly label: string;
  readonly pathParams: readonly PathParam[];
  readonly pathNode: ts.Node;
}

interface Arity {
  /** Type argument counts accepted when the handler takes only the stream. */
  readonly plain: readonly number[];
  /** ... and when it takes the handshake first. */
  readonly handshake: readonly number[];
  /** What the type arguments are, for messages. */
  readonly shape: string;
}

// As Encore's parser reads them: the message types come from the explicit type arguments,
// and whether there is a handshake from whether the handler takes two parameters.
const ARITY: Readonly<Record<StreamConstructor, Arity>> = {
  streamIn: { plain: [1, 2], handshake: [2, 3], shape: "<Handshake?, Incoming, Response?>" },
  streamOut: { plain: [1], handshake: [2], shape: "<Handshake?, Outgoing>" },
  streamInOut: { plain: [2], handshake: [3], shape: "<Handshake?, Incoming, Outgoing>" },
};

const DIRECTION: Readonly<Record<StreamConstructor, StreamMeta["direction"]>> = {
  streamIn: "in",
  streamOut: "out",
  streamInOut: "inout",
};

/** The handshake (as a GET request: path, query, headers) and the message schemas of a stream endpoint. */
export function streamParts(app: AppProgram, schemas: SchemaBuilder, input: StreamInput): { request: RequestMeta | null; stream: StreamMeta } {
  const { call, label, factory } = input;
  const handler = call.arguments[1];
  if (!handler) throw errorAt(app.appRoot, call, `endpoint ${label} has no handler function`);
  const [signature] = app.checker.getTypeAtLocation(handler).getCallSignatures();
  if (!signature) throw errorAt(app.appRoot, handler, `the handler of endpoint ${label} is not a function`);
  if (signature.getTypeParameters()?.length) {
    throw errorAt(app.appRoot, handler, `the handler of stream endpoint ${label} cannot have type parameters`);
  }
  const hasHandshake = signature.getParameters().length === 2;
  const arity = ARITY[factory];
  const typeArgs = call.typeArguments;
  if (!typeArgs) {
    throw errorAt(app.appRoot, call, `missing type parameters in call to api.${factory} of endpoint ${label}: write api.${factory}${arity.shape}(...)`);
  }
  const accepted = hasHandshake ? arity.handshake : arity.plain;
  if (!accepted.includes(typeArgs.length)) {
    const takes = hasHandshake ? "the handshake and the stream" : "only the stream";
    throw errorAt(
      app.appRoot,
      call,
      `api.${factory} of endpoint ${label} has ${typeArgs.length} type parameters; with a handler that takes ${takes} it needs ${accepted.join(" or ")} (${arity.shape})`,
    );
  }

  const request = hasHandshake
    ? buildRequest(app, schemas, {
        endpoint: label,
        type: app.checker.getTypeFromTypeNode(typeArgs[0]!),
        node: typeArgs[0]!,
        methods: ["GET"],
        pathParams: input.pathParams,
        pathNode: input.pathNode,
      })
    : (checkNoPathParams(app, { endpoint: label, pathParams: input.pathParams, pathNode: input.pathNode }), null);

  const message = (index: number, what: string): JSONSchema => messageSchema(app, schemas, typeArgs[index]!, `the ${what} of ${label}`);
  const first = hasHandshake ? 1 : 0;
  const direction = DIRECTION[factory];
  if (direction === "out") return { request, stream: { direction, incoming: null, outgoing: message(first, "outgoing message") } };
  const incoming = message(first, "incoming message");
  if (direction === "inout") return { request, stream: { direction, incoming, outgoing: message(first + 1, "outgoing message") } };
  // streamIn's response: the type argument when given, else what the handler returns.
  const outgoing =
    typeArgs.length > first + 1
      ? responseSchema(app, schemas, typeArgs[first + 1]!, `the response of ${label}`)
      : buildResponse(app, schemas, signature, handler, label);
  return { request, stream: { direction, incoming, outgoing } };
}

/** Messages travel as JSON objects: each is an object type. */
function messageSchema(app: AppProgram, schemas: SchemaBuilder, node: ts.TypeNode, what: string): JSONSchema {
  const type = app.checker.getTypeFromTypeNode(node);
  const site = { node, owner: typeName(type) ?? what, field: "" };
  const schema = schemas.schemaOf(type, site);
  if (!isObjectSchema(schema)) schemas.fail({ ...site, owner: what }, type, "stream messages must be object types");
  return schema;
}

/** streamIn's response type argument: void (or a promise of it) means the handler sends nothing back. */
function responseSchema(app: AppProgram, schemas: SchemaBuilder, node: ts.TypeNode, what: string): JSONSchema | null {
  const written = app.checker.getTypeFromTypeNode(node);
  const type = app.checker.getAwaitedType(written) ?? written;
  const nothing = ts.TypeFlags.Void | ts.TypeFlags.Undefined;
  if (type.flags & nothing || (type.isUnion() && type.types.every((member) => member.flags & nothing))) return null;
  const site = { node, owner: typeName(type) ?? what, field: "" };
  const schema = schemas.schemaOf(type, site);
  if (!isObjectSchema(schema)) schemas.fail({ ...site, owner: what }, type, "responses must be object types");
  return schema;
}

function isObjectSchema(schema: JSONSchema): boolean {
  return schema["type"] === "object" || Object.keys(schema).length === 0;
}
