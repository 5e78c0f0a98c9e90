import { currentRequest, type APICallMeta } from "encore.dev";
import { api, type HttpStatus } from "encore.dev/api";
import log from "encore.dev/log";
import { service2 } from "~encore/clients";

interface HelloResponse {
  message: string;
}

/** Says hello to whoever the path names. */
export const hello = api({ expose: true, method: "GET", path: "/hello/:name" }, async ({ name }: { name: string }): Promise<HelloResponse> => {
  return { message: `Hello ${name}` };
});

interface MiddlewareDemoResponse {
  message: string;
  /** What the service's middleware left in the request's data. */
  middlewareMsg: string;
}

/** Tagged for the service's middleware, which sets the status and a header of the answer. */
export const middlewareDemo = api(
  { expose: true, method: "GET", path: "/middleware-test", tags: ["mwtest"] },
  async (): Promise<MiddlewareDemoResponse> => {
    const call = currentRequest() as APICallMeta;
    const fromMiddleware = call.middlewareData?.customMsg;
    return { message: "Hello", middlewareMsg: typeof fromMiddleware === "string" ? fromMiddleware : "Not set" };
  },
);

interface GreetingViaRequest {
  name: string;
  style?: "formal" | "casual" | "excited";
}

interface GreetingViaResponse {
  message: string;
  greeting: string;
}

/** Asks service2 for the greeting, in-process, through ~encore/clients. */
export const getGreetingViaService2 = api(
  { expose: true, method: "POST", path: "/get-greeting" },
  async ({ name, style }: GreetingViaRequest): Promise<GreetingViaResponse> => {
    try {
      const { greeting } = await service2.greet({ name, style: style ?? "formal" });
      return { message: "Greeting retrieved successfully via service-to-service call", greeting };
    } catch (err) {
      log.error("the call to service2.greet failed", { error: String(err) });
      throw new Error(`Service-to-service call failed: ${(err as Error).message}`);
    }
  },
);

interface AcceptedResponse {
  message: string;
  /** The answer's HTTP status: Encore sends it as the status, not in the body. */
  status: HttpStatus;
}

/** Answers 202 Accepted by its response's HttpStatus field. */
export const customStatus = api({ expose: true, method: "GET", path: "/test-custom-status" }, async (): Promise<AcceptedResponse> => {
  return { message: "I accept!", status: 202 };
});
