// What generated ~encore/clients code calls, at the import path Encore's generator uses.
import type { CallOpts } from "../../../api/mod.ts";
import { callEndpoint } from "../../../../internal/calls/api-call.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- typed by the generated client
export async function apiCall(service: string, endpoint: string, data: any, _opts?: CallOpts): Promise<any> {
  return callEndpoint(service, endpoint, data);
}
