// Streaming endpoints: inert declarations, as api() is. The runtime serves them over
// WebSocket from the generated metadata; the type parameters are what the parser reads.
export { IterableSocket, IterableStream, Sink } from "../../internal/streams/handler-streams.ts";

export interface StreamOptions {
  /** Request path; `:name` for a segment parameter, `*name` for the rest. Defaults to `/<service>.<endpoint>`. */
  path?: string;
  /** Reachable from outside the app. Defaults to false. */
  expose?: boolean;
  /** Requires an authenticated caller: the auth handler runs on the handshake. Defaults to false. */
  auth?: boolean;
  tags?: string[];
  sensitive?: boolean;
}

/** Incoming messages: iterate with `for await`, or read one with `recv()`. */
export interface StreamIn<Request> extends AsyncIterable<Request> {
  recv: () => Promise<Request>;
}

/** Outgoing messages: `send()` each, `close()` when done. */
export interface StreamOut<Response> {
  send: (msg: Response) => Promise<void>;
  close: () => Promise<void>;
}

/** What a caller of an api.streamIn endpoint gets: a sink, and the handler's response once it returns. */
export interface StreamOutWithResponse<Request, Response> extends StreamOut<Request> {
  response: () => Promise<Response>;
}

export type StreamInOut<Request, Response> = StreamIn<Request> & StreamOut<Response>;

export type StreamInOutHandlerFn<HandshakeData, Request, Response> = HandshakeData extends void
  ? (stream: StreamInOut<Request, Response>) => Promise<void>
  : (data: HandshakeData, stream: StreamInOut<Request, Response>) => Promise<void>;

export type StreamOutHandlerFn<HandshakeData, Response> = HandshakeData extends void
  ? (stream: StreamOut<Response>) => Promise<void>
  : (data: HandshakeData, stream: StreamOut<Response>) => Promise<void>;

export type StreamInHandlerFn<HandshakeData, Request, Response> = HandshakeData extends void
  ? (stream: StreamIn<Request>) => Promise<Response>
  : (data: HandshakeData, stream: StreamIn<Request>) => Promise<Response>;

/**
 * Declares an endpoint whose messages flow both ways.
 * @example
 * export const chat = api.streamInOut<InMessage, OutMessage>({ expose: true, path: "/chat" },
 *   async (stream) => { for await (const msg of stream) await stream.send({ echo: msg.text }); });
 */
export function streamInOut<HandshakeData, Request, Response>(
  options: StreamOptions,
  fn: (data: HandshakeData, stream: StreamInOut<Request, Response>) => Promise<void>,
): StreamInOutHandlerFn<HandshakeData, Request, Response>;
export function streamInOut<Request, Response>(
  options: StreamOptions,
  fn: (stream: StreamInOut<Request, Response>) => Promise<void>,
): StreamInOutHandlerFn<void, Request, Response>;
export function streamInOut(_options: StreamOptions, fn: unknown): unknown {
  return fn;
}

/**
 * Declares an endpoint that receives messages; what its handler returns is sent back
 * as the last message.
 * @example
 * export const upload = api.streamIn<Handshake, Chunk, Summary>({ expose: true, path: "/upload" },
 *   async (handshake, stream) => { for await (const chunk of stream) ...; return { ok: true }; });
 */
export function streamIn<Request>(
  options: StreamOptions,
  fn: (stream: StreamIn<Request>) => Promise<void>,
): StreamInHandlerFn<void, Request, void>;
export function streamIn<Request, Response>(
  options: StreamOptions,
  fn: (stream: StreamIn<Request>) => Promise<Response>,
): StreamInHandlerFn<void, Request, Response>;
export function streamIn<HandshakeData, Request, Response>(
  options: StreamOptions,
  fn: (data: HandshakeData, stream: StreamIn<Request>) => Promise<Response>,
): StreamInHandlerFn<HandshakeData, Request, Response>;
export function streamIn(_options: StreamOptions, fn: unknown): unknown {
  return fn;
}

/**
 * Declares an endpoint that sends messages.
 * @example
 * export const logs = api.streamOut<Handshake, LogLine>({ expose: true, path: "/logs" },
 *   async (handshake, stream) => { await stream.send({ row: "..." }); await stream.close(); });
 */
export function streamOut<HandshakeData, Response>(
  options: StreamOptions,
  fn: (data: HandshakeData, stream: StreamOut<Response>) => Promise<void>,
): StreamOutHandlerFn<HandshakeData, Response>;
export function streamOut<Response>(options: StreamOptions, fn: (stream: StreamOut<Response>) => Promise<void>): StreamOutHandlerFn<void, Response>;
export function streamOut(_options: StreamOptions, fn: unknown): unknown {
  return fn;
}
