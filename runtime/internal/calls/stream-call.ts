import { noCredentials } from "../auth/mod.ts";
import { APIError } from "../errors/api-error.ts";
import type { StreamMeta } from "../meta/types.ts";
import { loadEndpoints, type Endpoint } from "../registry/endpoints.ts";
import { ApiCallRequest } from "../reqtrack/api-call.ts";
import { currentAuthData } from "../reqtrack/mod.ts";
import { compileCallValidator } from "../server/pipeline/request.ts";
import { memoryStreamPair, type PairDecoders } from "../streams/memory-transport.ts";
import { compileMessageDecoder } from "../streams/message-codec.ts";
import { runStreamHandler } from "../streams/session.ts";
import type { StreamTransport } from "../streams/transport.ts";
import { givenAuthData, type CallOptions } from "./api-call.ts";

interface Compiled {
  readonly handshake: ((params: unknown) => unknown) | null;
  readonly decoders: PairDecoders;
}

const compiled = new Map<string, Compiled>();

/**
 * Opens a stream to service.endpoint in-process, as a call through ~encore/clients does:
 * the handshake is validated and the auth rules applied as over a WebSocket, then the
 * handler starts on one end of a memory pair and the caller gets the other, shaped for
 * the endpoint's direction. Resolves once the handler has started, not when it ends.
 */
export async function openStream(service: string, endpoint: string, params: unknown, opts?: CallOptions): Promise<object> {
  const key = `${service}.${endpoint}`;
  const target = (await loadEndpoints()).get(key);
  if (!target?.meta.stream) throw APIError.notFound(`no stream endpoint ${key}`);
  const authData = opts?.authData === undefined ? currentAuthData() : await givenAuthData(opts.authData);
  if (target.meta.auth && authData === null) throw noCredentials();
  const { handshake, decoders } = compiledFor(key, target);
  const input = handshake ? (handshake(params) as Record<string, unknown>) : undefined;
  const { server, client } = memoryStreamPair(decoders, key);
  runStreamHandler(target, server, new ApiCallRequest(target.meta, authData, null, null, input), input);
  return callerStream(target.meta.stream.direction, client);
}

/** The caller's side of each kind of stream, shaped as encore.dev's ~encore/clients returns it. */
function callerStream(direction: StreamMeta["direction"], transport: StreamTransport): object {
  const close = async () => transport.close();
  const iterate = async function* () {
    while (true) {
      try {
        yield await transport.recv();
      } catch {
        return;
      }
    }
  };
  if (direction === "in") {
    // The handler's return value is the one message that comes back.
    const response = transport.recv();
    response.catch(() => {}); // read through response(), if at all
    return { send: (msg: Record<string, unknown>) => transport.send(msg), close, response: () => response };
  }
  if (direction === "out") return { recv: () => transport.recv(), close, [Symbol.asyncIterator]: iterate };
  return { send: (msg: Record<string, unknown>) => transport.send(msg), recv: () => transport.recv(), close, [Symbol.asyncIterator]: iterate };
}

function compiledFor(key: string, target: Endpoint): Compiled {
  let found = compiled.get(key);
  if (!found) {
    const { request, stream } = target.meta;
    found = {
      handshake: request ? compileCallValidator(request) : null,
      decoders: {
        server: stream?.incoming ? compileMessageDecoder(stream.incoming) : null,
        client: stream?.outgoing ? compileMessageDecoder(stream.outgoing) : null,
      },
    };
    compiled.set(key, found);
  }
  return found;
}
