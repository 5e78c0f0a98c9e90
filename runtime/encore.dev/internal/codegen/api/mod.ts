// What generated ~encore/clients code calls, at the import path Encore's generator uses.
import type { CallOpts } from "../../../api/mod.ts";
import { callEndpoint, type CallOptions } from "../../../../internal/calls/api-call.ts";
import { openStream } from "../../../../internal/calls/stream-call.ts";

/**
 * Calls service.endpoint in-process. The callee sees the caller's auth data, or
 * `opts.authData` when given (declared on CallOpts by the generated ~encore/auth).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- typed by the generated client
export async function apiCall(service: string, endpoint: string, data: any, opts?: CallOpts): Promise<any> {
  return callEndpoint(service, endpoint, data, opts as { authData?: unknown } | undefined);
}

// Streams to another service's endpoint, in-process; shaped as encore.dev's ~encore/clients returns them.
/* eslint-disable @typescript-eslint/no-explicit-any -- typed by the generated client */

/** api.streamInOut: send, recv, close, and `for await` over what the handler sends. */
export async function streamInOut(service: string, endpoint: string, data: any, opts?: CallOpts): Promise<any> {
  return openStream(service, endpoint, data, opts as CallOptions | undefined);
}

/** api.streamIn: send and close, then response() for what the handler returned. */
export async function streamIn(service: string, endpoint: string, data: any, opts?: CallOpts): Promise<any> {
  return openStream(service, endpoint, data, opts as CallOptions | undefined);
}

/** api.streamOut: recv, close, and `for await` over what the handler sends. */
export async function streamOut(service: string, endpoint: string, data: any, opts?: CallOpts): Promise<any> {
  return openStream(service, endpoint, data, opts as CallOptions | undefined);
}
