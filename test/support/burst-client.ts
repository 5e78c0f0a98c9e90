// Many requests at once over a bounded number of connections. Node's fetch opens a
// connection per request in flight: 2000 at once overflow a server's listen queue (511 in
// Node), the kernel answers the overflow with SYN cookies, and a connection whose cookie it
// then refuses is reset, which a test would read as the app failing (seen on a loaded
// machine: "read ECONNRESET"). The tests that use this are about the app's answers, so
// they keep the kernel's queue out of it.
import { Agent, request } from "node:http";

export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

export interface BurstClient {
  get(url: string): Promise<Answer>;
  /** Closes its connections. */
  close(): void;
}

/** At most `connections` connections (well under the listen queue), kept alive; the other requests wait for one. */
export function burstClient(connections = 256): BurstClient {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  return {
    get: (url) =>
      new Promise((resolve, reject) => {
        const req = request(url, { agent }, (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (body += chunk));
          res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
          res.on("error", reject);
        });
        req.on("error", reject);
        req.end();
      }),
    close: () => agent.destroy(),
  };
}
