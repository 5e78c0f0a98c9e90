import type { IncomingMessage } from "node:http";
import type { EndpointMeta } from "../meta/types.ts";
import { currentTraceData } from "../tracing/mod.ts";
import type { APICallMeta, BaseRequestMeta, Method } from "./meta.ts";
import type { AuthData, TrackedRequest } from "./mod.ts";
import { IdentifiedRequest, requestIdHeader } from "./request-id.ts";

type Values = Record<string, unknown>;

/**
 * One API call being handled, over HTTP or in-process. It holds only references; the
 * meta currentRequest() reports is built on first use, so a request whose handler never
 * asks (the short-link redirect) pays for one small object and nothing else.
 */
export class ApiCallRequest implements TrackedRequest {
  #meta: (APICallMeta & BaseRequestMeta) | undefined;
  #middlewareData: Values | undefined;

  constructor(
    readonly endpoint: EndpointMeta,
    readonly authData: AuthData | null,
    /** The HTTP request; null for a call from another service. */
    private readonly http: IncomingMessage | null,
    /** The router's path parameters (text; a wildcard under "*"); null when the payload holds them. */
    private readonly routeParams: Values | null,
    /** The handler's parameters, validated; undefined for raw endpoints and endpoints without any. */
    private readonly payload: Values | undefined,
  ) {}

  requestMeta(): APICallMeta & BaseRequestMeta {
    this.#meta ??= this.describe();
    return this.#meta;
  }

  /** What the service's middlewares left in `req.data` for the handler, reported as `middlewareData`. */
  setMiddlewareData(data: Values): void {
    this.#middlewareData = data;
    if (this.#meta) this.#meta.middlewareData = data;
  }

  private describe(): APICallMeta & BaseRequestMeta {
    const e = this.endpoint;
    const meta: APICallMeta & BaseRequestMeta = {
      type: "api-call",
      api: { service: e.service, endpoint: e.name, raw: e.kind === "raw", auth: e.auth, tags: [...e.tags] },
      method: "GET",
      path: "",
      pathAndQuery: "",
      pathParams: this.pathParams(),
      headers: {},
    };
    const trace = currentTraceData();
    if (trace !== undefined) meta.trace = trace;
    if (this.payload !== undefined) meta.parsedPayload = this.payload;
    if (this.#middlewareData !== undefined) meta.middlewareData = this.#middlewareData;
    if (this.http) {
      const url = this.http.url ?? "/";
      const query = url.indexOf("?");
      meta.method = this.http.method as Method;
      meta.path = query === -1 ? url : url.slice(0, query);
      meta.pathAndQuery = url;
      meta.headers = { ...this.http.headers } as Record<string, string | string[]>;
      // The id the response carries: the caller's when well formed, else the one the server made.
      if (this.http instanceof IdentifiedRequest && this.http.requestId !== "") meta.headers[requestIdHeader] = this.http.requestId;
    } else {
      this.describeCall(meta);
    }
    return meta;
  }

  private pathParams(): Values {
    const params: Values = {};
    for (const { name, wildcard } of this.endpoint.pathParams) {
      const value = this.routeParams ? this.routeParams[wildcard ? "*" : name] : this.payload?.[name];
      // A wildcard that matched nothing ("/" for "/!path") is absent, as Encore reports it.
      if (value !== undefined && !(wildcard && value === "")) params[name] = value;
    }
    return params;
  }

  /** What the call would have sent over HTTP: path parameters filled in, query and header fields placed. */
  private describeCall(meta: APICallMeta): void {
    const e = this.endpoint;
    const first = e.methods[0];
    meta.method = (first === undefined || first === "*" ? "POST" : first) as Method;
    meta.path = e.path.replace(/([:*!])([A-Za-z0-9_]+)/g, (whole, kind: string, name: string) => {
      const value = meta.pathParams[name];
      if (value === undefined) return whole;
      return kind === ":" ? encodeURIComponent(String(value)) : String(value).split("/").map(encodeURIComponent).join("/");
    });
    const query = new URLSearchParams();
    for (const field of e.request?.fields ?? []) {
      const value = this.payload?.[field.name];
      if (value === undefined || value === null) continue;
      const texts = (Array.isArray(value) ? value : [value]).map(wireText);
      if (field.location === "query") for (const text of texts) query.append(field.wireName, text);
      else if (field.location === "header") meta.headers[field.wireName] = texts.length === 1 ? texts[0]! : texts;
    }
    const search = query.toString();
    meta.pathAndQuery = search ? `${meta.path}?${search}` : meta.path;
  }
}

function wireText(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value);
}
