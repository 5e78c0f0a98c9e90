// Requests for the seeding and exact-count phases. Each phase gets its own keep-alive
// agent, destroyed at its end: a pooled connection left idle across the timed phases
// would outlive the server's keep-alive timeout and race its close.
import { Agent, request, type OutgoingHttpHeaders } from "node:http";

export interface Phase {
  send(method: "GET" | "HEAD" | "POST", url: string, body?: string, headers?: OutgoingHttpHeaders): Promise<{ status: number; body: string }>;
  end(): void;
}

export function phase(): Phase {
  const agent = new Agent({ keepAlive: true, maxSockets: 128 });
  return {
    send: (method, url, body, headers) =>
      new Promise((resolve, reject) => {
        const req = request(url, { method, agent, headers }, (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (c: string) => (text += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        });
        req.on("error", reject);
        req.end(body);
      }),
    end: () => agent.destroy(),
  };
}
