import { rootLogger } from "../log/root.ts";
import type { Endpoint, Handler } from "../registry/endpoints.ts";
import type { ApiCallRequest } from "../reqtrack/api-call.ts";
import { runWithRequest } from "../reqtrack/mod.ts";
import { IterableSocket, IterableStream, Sink } from "./handler-streams.ts";
import type { StreamMessage, StreamTransport } from "./transport.ts";

// In encore.dev an api.streamOut or api.streamInOut stream stays open after its handler
// returns, for as long as the app holds the stream object (to broadcast to it later, say),
// and closes once that object is garbage collected. The registry holds the transport,
// which never refers back to the object the handler got.
const abandoned = new FinalizationRegistry<StreamTransport>((transport) => transport.close());

/**
 * Runs a stream endpoint's handler on an accepted stream: with the handshake's parameters
 * first when it declares a handshake, as in encore.dev. An api.streamIn handler's return
 * value is sent as the last message, then the stream closes; a handler that fails closes
 * its stream as failed.
 */
export function runStreamHandler(endpoint: Endpoint, transport: StreamTransport, request: ApiCallRequest, params: StreamMessage | undefined): void {
  const { meta } = endpoint;
  const direction = meta.stream!.direction;
  const stream = direction === "in" ? new IterableStream(transport) : direction === "out" ? new Sink(transport) : new IterableSocket(transport);
  const handler = endpoint.handler as Handler;
  const failed = (err: unknown) => {
    rootLogger().error({ err, endpoint: `${meta.service}.${meta.name}` }, "stream handler failed");
    transport.fail();
  };
  let result: unknown;
  try {
    result = runWithRequest(request, () => (meta.request ? handler(params, stream) : handler(stream)));
  } catch (err) {
    return failed(err);
  }
  void Promise.resolve(result).then(async (response) => {
    // Only from here: while the handler runs, its stream is in use whatever the collector thinks.
    if (direction !== "in") return abandoned.register(stream, transport);
    if (response !== undefined && response !== null && meta.stream!.outgoing) {
      await transport.send(response as StreamMessage).catch(() => {}); // the client may have gone already
    }
    transport.close();
  }, failed);
}
