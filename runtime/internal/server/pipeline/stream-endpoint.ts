import FindMyWay, { type HTTPMethod } from "find-my-way";
import type { RouteOptions } from "fastify";
import { STATUS_CODES, type IncomingMessage } from "node:http";
import { parse as parseQuery } from "node:querystring";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { APIError } from "../../errors/api-error.ts";
import type { Endpoint } from "../../registry/endpoints.ts";
import { ApiCallRequest } from "../../reqtrack/api-call.ts";
import { compileMessageDecoder } from "../../streams/message-codec.ts";
import { runStreamHandler } from "../../streams/session.ts";
import { closeGoingAway, websocketTransport } from "../../streams/ws-transport.ts";
import { compileAuthStep } from "./auth.ts";
import { settleForwardedFor } from "./client-address.ts";
import { retryAfterOf, toWire } from "./errors.ts";
import { applySubprotocolHeaders } from "./websocket-headers.ts";
import { logFailure } from "./failure-log.ts";
import { compileRequestDecoder } from "./request.ts";
import type { RouteContext } from "./route-context.ts";
import { nameWildcard, toFastifyPath, trailingSlashTwins } from "./route-paths.ts";

type Source = Record<string, unknown>;

/** The subprotocol Encore's WebSocket upgrade offers; clients that ask for it get it. */
const encoreProtocol = "encore-ws";
// axum's default, which Encore's runtime keeps.
const maxMessageBytes = 64 * 1024 * 1024;

export interface StreamUpgrades {
  /** The HTTP server's "upgrade" listener. */
  readonly handle: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** Closes every open stream as going away (1001); cuts those whose clients have not answered within `graceMs`. */
  readonly closeAll: (graceMs: number) => Promise<void>;
}

type Handshake = (req: IncomingMessage, socket: Duplex, head: Buffer, routeParams: Source, query: Source) => Promise<void>;

/**
 * Serves the exposed stream endpoints over WebSocket. The handshake is a GET request
 * checked as any other: the auth step first, then path, query and header parameters;
 * a handshake that fails is answered in Encore's error format, with its status, and
 * never upgraded. Headers that Encore's clients send inside the subprotocol list
 * (`encore.dev.headers.*`) become request headers first, as Encore's gateway makes
 * them. Null when the app has no exposed stream endpoints: the server then listens to
 * no upgrade at all.
 */
export function streamUpgrades(endpoints: readonly Endpoint[], ctx: RouteContext, isClosing: () => boolean): StreamUpgrades | null {
  const streams = endpoints.filter((e) => e.meta.kind === "stream");
  if (streams.length === 0) return null;
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: maxMessageBytes,
    handleProtocols: (offered) => (offered.has(encoreProtocol) ? encoreProtocol : false),
  });
  const router = FindMyWay({ maxParamLength: 500 });
  const twins = trailingSlashTwins(endpoints.map((e) => e.meta));
  for (const endpoint of streams) {
    const handshake = compileHandshake(endpoint, ctx, wss);
    const url = toFastifyPath(endpoint.meta.path);
    router.on("GET", url, () => {}, handshake);
    if (twins.has(endpoint.meta)) router.on("GET", `${url}/`, () => {}, handshake);
  }

  return {
    handle: (req, socket, head) => {
      socket.on("error", () => {}); // a client that resets mid-handshake; nothing to answer
      const refuse = (err: unknown) => refuseUpgrade(socket, req, err, ctx);
      if (isClosing()) return refuse(APIError.unavailable("the server is shutting down"));
      // Headers a browser client sent in the subprotocol list, before anything reads the headers.
      try {
        applySubprotocolHeaders(req);
      } catch (err) {
        return refuse(err);
      }
      const url = req.url ?? "/";
      const queryAt = url.indexOf("?");
      const found = router.find(req.method as HTTPMethod, queryAt === -1 ? url : url.slice(0, queryAt));
      if (!found) return refuse(APIError.notFound("endpoint not found"));
      if (req.headers.upgrade?.toLowerCase() !== "websocket") {
        return refuse(APIError.invalidArgument('stream endpoints are reached with "Upgrade: websocket"'));
      }
      const query = queryAt === -1 ? {} : (parseQuery(url.slice(queryAt + 1)) as Source);
      (found.store as Handshake)(req, socket, head, { ...found.params }, query).catch(refuse);
    },
    closeAll: async (graceMs) => {
      const open = [...wss.clients];
      const closed = open.map((ws) => new Promise<void>((resolve) => (ws.readyState === ws.CLOSED ? resolve() : ws.once("close", () => resolve()))));
      for (const ws of open) closeGoingAway(ws);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(closed), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      for (const ws of wss.clients) ws.terminate();
    },
  };
}

/** A plain GET (or HEAD) to a stream endpoint's path: it is only reachable as a WebSocket. */
export function plainRequestRoute(endpoint: Endpoint): RouteOptions {
  return {
    method: "GET",
    url: toFastifyPath(endpoint.meta.path),
    handler: async () => {
      throw APIError.invalidArgument('stream endpoints are reached with "Upgrade: websocket"');
    },
  };
}

/** Compiled at boot, per endpoint: its auth step, handshake decoder and message decoder. */
function compileHandshake(endpoint: Endpoint, ctx: RouteContext, wss: WebSocketServer): Handshake {
  const { meta } = endpoint;
  const label = `${meta.service}.${meta.name}`;
  const authenticate = compileAuthStep(meta.auth, ctx.auth);
  const decode = meta.request ? compileRequestDecoder(meta.request) : null;
  const incoming = meta.stream?.incoming;
  const decodeMessage = incoming ? compileMessageDecoder(incoming) : null;
  const wildcard = meta.pathParams.find((p) => p.wildcard)?.name;
  const readsForwardedFor = meta.request?.fields.some((f) => f.location === "header" && f.wireName === "x-forwarded-for") ?? false;

  return async (req, socket, head, routeParams, query) => {
    // Before the handshake is validated: a caller without valid credentials learns nothing of what it expects.
    const pending = authenticate(req, query);
    const authData = pending === null ? null : await pending;
    let params: Source | undefined;
    if (decode) {
      if (readsForwardedFor) settleForwardedFor(req, ctx.trustProxy);
      nameWildcard(routeParams, wildcard);
      params = decode({ path: routeParams, query, headers: req.headers as Source, body: undefined });
    }
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      const request = new ApiCallRequest(meta, authData, req, null, params);
      runStreamHandler(endpoint, websocketTransport(ws, decodeMessage, label), request, params);
    });
  };
}

function refuseUpgrade(socket: Duplex, req: IncomingMessage, err: unknown, ctx: RouteContext): void {
  const { status, body } = toWire(err, ctx.exposeInternalErrors, ctx.errorExtras);
  logFailure(err, status, req, "stream handshake failed");
  if (!socket.writable) return void socket.destroy();
  const payload = JSON.stringify(body);
  const retryAfter = retryAfterOf(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\n` +
      "connection: close\r\ncontent-type: application/json; charset=utf-8\r\n" +
      (retryAfter === undefined ? "" : `retry-after: ${retryAfter}\r\n`) +
      `content-length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`,
  );
}
