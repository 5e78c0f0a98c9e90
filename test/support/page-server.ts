// A small HTTP server of pages for the tests of fetching a link's preview: each path a
// handler, on a free loopback port; it records whether a response was cut off by the client.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type PageHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface PageServer {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** Bytes written to responses the client closed before their end, by path. */
  readonly cutOff: Map<string, number>;
  /** The paths asked for, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

export async function startPageServer(pages: Record<string, PageHandler>): Promise<PageServer> {
  const cutOff = new Map<string, number>();
  const requests: string[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    requests.push(path);
    res.on("close", () => {
      if (!res.writableFinished) cutOff.set(path, res.socket?.bytesWritten ?? -1);
    });
    const handler = pages[path];
    if (handler === undefined) {
      res.writeHead(404).end();
      return;
    }
    handler(req, res);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    cutOff,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export const html = (body: string): PageHandler => (_req, res) => {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  res.end(body);
};

export const redirectTo = (location: string): PageHandler => (_req, res) => {
  res.writeHead(302, { location });
  res.end();
};

/** Never answers: the fetch must give up by itself. */
export const neverAnswers: PageHandler = () => {};

/** A head with a title, then a body that never ends (64 KiB every few milliseconds, until the client leaves). */
export const endless = (title: string): PageHandler => (_req, res) => {
  res.writeHead(200, { "content-type": "text/html" });
  res.write(`<html><head><title>${title}</title></head><body>`);
  const chunk = `<p>${"x".repeat(64 * 1024)}</p>`;
  const timer = setInterval(() => {
    if (res.destroyed) return clearInterval(timer);
    res.write(chunk);
  }, 2);
  res.on("close", () => clearInterval(timer));
};
