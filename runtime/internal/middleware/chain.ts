import type { ApiCallRequest } from "../reqtrack/api-call.ts";
import { HandlerResponse, MiddlewareRequest, responseParts, type Middleware, type ResponseParts } from "./middleware.ts";

/**
 * Runs one endpoint's middlewares around its handler. Call it inside the request's
 * context (runWithRequest), so middlewares and handler see the same currentRequest().
 * `first` is what the first middleware gets; `handler` runs the endpoint itself.
 */
export type MiddlewareChain = (call: ApiCallRequest, first: MiddlewareRequest, handler: () => unknown) => Promise<ResponseParts>;

/**
 * Compiled per endpoint at boot from the middlewares that target it. No middleware, no
 * chain: null, and the caller calls the handler directly, as before there were any.
 */
export function compileChain(service: string, middlewares: readonly Middleware[]): MiddlewareChain | null {
  if (middlewares.length === 0) return null;
  const chain = [...middlewares];
  return async (call, first, handler) => {
    const step = async (index: number, req: MiddlewareRequest): Promise<HandlerResponse> => {
      if (!(req instanceof MiddlewareRequest)) {
        throw new Error(`middleware ${index - 1} of service "${service}" called next() without a MiddlewareRequest`);
      }
      const current = chain[index];
      if (current === undefined) {
        call.setMiddlewareData(req.data);
        return new HandlerResponse(await handler());
      }
      return current(req, (next) => step(index + 1, next));
    };
    const resp: unknown = await step(0, first);
    if (!(resp instanceof HandlerResponse)) {
      throw new Error(`a middleware of service "${service}" returned something other than the HandlerResponse of next()`);
    }
    return responseParts(resp);
  };
}
