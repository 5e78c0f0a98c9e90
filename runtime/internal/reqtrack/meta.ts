// What encore.dev's currentRequest() reports, field for field as the real package
// declares it (req_meta.ts), so app code reads the same shape on either runtime.
import type { TraceData } from "../tracing/trace-data.ts";

export type { TraceData };

/** Describes an API endpoint. */
export interface APIDesc {
  /** The name of the service that the endpoint belongs to. */
  service: string;
  /** The name of the endpoint itself. */
  endpoint: string;
  /** Whether the endpoint is a raw endpoint. */
  raw: boolean;
  /** Whether the endpoint requires auth. */
  auth: boolean;
  /** Tags specified on the endpoint. */
  tags: string[];
}

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS" | "CONNECT" | "TRACE";

/** Describes an API call being processed. */
export interface APICallMeta {
  type: "api-call";
  api: APIDesc;
  method: Method;
  /** The request path, without the query string: "/url/abc". */
  path: string;
  /** The request path with the query string: "/url?limit=5". */
  pathAndQuery: string;
  /** The endpoint's path parameters by name, parsed as the endpoint declares them (typed endpoints). */
  pathParams: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- as in encore.dev
  /** The request headers; a header sent more than once is an array. */
  headers: Record<string, string | string[]>;
  /** The parsed request, as the handler receives it; not for raw endpoints or endpoints without parameters. */
  parsedPayload?: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- as in encore.dev
  /** What the service's middlewares set in `req.data`; present once a middleware chain has reached the handler. */
  middlewareData?: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- as in encore.dev
}

/** Describes a Pub/Sub message being processed. */
export interface PubSubMessageMeta {
  type: "pubsub-message";
  service: string;
  topic: string;
  subscription: string;
  /** The message id, the same on every delivery attempt. */
  messageId: string;
  /** 1 for the first delivery, one more for each retry. */
  deliveryAttempt: number;
  parsedPayload?: Record<string, unknown>;
}


/** Common fields shared by all request meta types. */
export interface BaseRequestMeta {
  trace?: TraceData;
}

export type RequestMeta = (APICallMeta | PubSubMessageMeta) & BaseRequestMeta;
