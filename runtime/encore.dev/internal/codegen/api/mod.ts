// What generated ~encore/clients code calls, at the import path Encore's generator uses.
import type { CallOpts } from "../../../api/mod.ts";
import { callEndpoint } from "../../../../internal/calls/api-call.ts";

/**
 * Calls service.endpoint in-process. The callee sees the caller's auth data, or
 * `opts.authData` when given (declared on CallOpts by the generated ~encore/auth).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- typed by the generated client
export async function apiCall(service: string, endpoint: string, data: any, opts?: CallOpts): Promise<any> {
  return callEndpoint(service, endpoint, data, opts as { authData?: unknown } | undefined);
}
