// The reverse proxy in front of the replicas: Debian's nginx, as a child process with a
// configuration of the test's own. It balances between the replicas and, as a load
// balancer in front of a rolling upgrade must, sends a request that a stopping replica
// refused (or whose connection it closed before answering) to the other one. It takes the
// client's address from X-Forwarded-For, as behind a CDN, so a test can click from a
// public address and see its country.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const nginxBinary = "/usr/sbin/nginx";

export interface Proxy {
  readonly url: string;
  stop(): Promise<void>;
}

export async function startProxy(port: number, upstreams: readonly number[]): Promise<Proxy> {
  const prefix = mkdtempSync(path.join(tmpdir(), "nginx-"));
  mkdirSync(path.join(prefix, "logs"));
  const servers = upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join("\n");
  writeFileSync(
    path.join(prefix, "nginx.conf"),
    `daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  upstream app {
${servers}
  }
  server {
    listen 127.0.0.1:${port};
    set_real_ip_from 127.0.0.1;
    real_ip_header X-Forwarded-For;
    location / {
      proxy_pass http://app;
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout http_502 http_503;
      proxy_next_upstream_tries 2;
      proxy_connect_timeout 2s;
    }
  }
}
`,
  );
  const child = spawn(nginxBinary, ["-p", prefix, "-c", path.join(prefix, "nginx.conf")], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  await untilListening(url, child, () => stderr);
  return {
    url,
    async stop() {
      await stopChild(child);
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

async function untilListening(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr()}`);
    const answered = await fetch(`${url}/livez`, { signal: AbortSignal.timeout(1000) }).then(() => true, () => false);
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nginx did not listen at ${url}: ${stderr()}`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGQUIT");
  });
}
