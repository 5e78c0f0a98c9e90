// One load generator for every scenario of a run: wrk where installed, else autocannon.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

export interface Scenario {
  readonly method: "GET" | "POST";
  /** Fixed path, or a list of codes to pick from at random (with an optional suffix). */
  readonly path: string | { codes: readonly string[]; codesFile: string; suffix?: string };
  /** POST bodies are made unique per request. */
  readonly uniqueBodies?: boolean;
  /** Lookups of `path`'s codes mixed with these shares (0..1) of shortens and of stats of those codes. */
  readonly mix?: { readonly shorten: number; readonly stats: number };
  /** Headers sent with every request of the run (a browser's User-Agent, say). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A current desktop Chrome's User-Agent: a lookup sent with it is classified as a person's
 * click on Windows, the work every browser's click costs. Without one, a click is a bot's
 * and skips parsing the User-Agent, which would leave that work out of the figures.
 */
export const browserHeaders: Readonly<Record<string, string>> = {
  "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
};

export interface LoadResult {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  /** Answers with a 2xx status. */
  readonly ok: number;
  readonly failed: number;
  /** Mixed scenarios: lookups answered 200, the only answers that count a click. */
  readonly lookupsOk?: number;
}

export interface LoadOptions {
  readonly connections: number;
  readonly seconds: number;
}

const wrkDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "wrk");

export function generatorName(): "wrk" | "autocannon" {
  return hasWrk() ? "wrk" : "autocannon";
}

export function runLoad(baseUrl: string, scenario: Scenario, opts: LoadOptions): Promise<LoadResult> {
  return hasWrk() ? runWrk(baseUrl, scenario, opts) : runAutocannon(baseUrl, scenario, opts);
}

let wrkFound: boolean | undefined;
function hasWrk(): boolean {
  wrkFound ??= spawnSync("wrk", ["--version"]).error === undefined;
  return wrkFound;
}

async function runWrk(baseUrl: string, s: Scenario, o: LoadOptions): Promise<LoadResult> {
  const script = s.mix ? "mixed.lua" : s.uniqueBodies ? "shorten.lua" : typeof s.path === "string" ? null : "uniform.lua";
  // wrk takes one script: the scenario's, with the reporting function appended.
  const source = `${script ? readLua(script) : ""}\n${readLua("report.lua")}`;
  const scriptFile = path.join(tmpdir(), `bench-wrk-${process.pid}.lua`);
  writeFileSync(scriptFile, source);
  const url = baseUrl + (typeof s.path === "string" ? s.path : "/");
  let out: string;
  try {
    out = execWrk(scriptFile, url, s, o);
  } finally {
    rmSync(scriptFile, { force: true });
  }
  const line = out.trim().split("\n").reverse().find((l) => l.startsWith("{"));
  if (!line) throw new Error(`wrk printed no result:\n${out}`);
  const r = JSON.parse(line) as {
    requests: number;
    seconds: number;
    non2xx: number;
    socketErrors: number;
    p50: number;
    p99: number;
    lookupsOk: number;
  };
  const result = { rps: r.requests / r.seconds, p50: r.p50, p99: r.p99, ok: r.requests - r.non2xx, failed: r.non2xx + r.socketErrors };
  return s.mix ? { ...result, lookupsOk: r.lookupsOk } : result;
}

/** wrk's output for one run of the scenario's script. */
function execWrk(scriptFile: string, url: string, s: Scenario, o: LoadOptions): string {
  return execFileSync(
    "wrk",
    // -H headers go into wrk.headers, which wrk.format adds to the scripts' requests too.
    ["-t", "1", "-c", String(o.connections), "-d", `${o.seconds}s`, "--latency", ...headerArgs(s.headers), "-s", scriptFile, url],
    {
      env: {
        ...process.env,
        CODES_FILE: typeof s.path === "string" ? "" : s.path.codesFile,
        PATH_SUFFIX: typeof s.path === "string" ? "" : (s.path.suffix ?? ""),
        SHORTEN_SHARE: String(s.mix?.shorten ?? 0),
        STATS_SHARE: String(s.mix?.stats ?? 0),
      },
      encoding: "utf8",
    },
  );
}

function headerArgs(headers: Scenario["headers"] = {}): string[] {
  return Object.entries(headers).flatMap(([name, value]) => ["-H", `${name}: ${value}`]);
}

function readLua(name: string): string {
  return readFileSync(path.join(wrkDir, name), "utf8");
}

async function runAutocannon(baseUrl: string, s: Scenario, o: LoadOptions): Promise<LoadResult> {
  let n = 0;
  let lookupsOk = 0;
  const pick = typeof s.path === "string" ? null : s.path;
  const result = await autocannon({
    url: baseUrl,
    connections: o.connections,
    duration: o.seconds,
    headers: { ...s.headers },
    requests: [
      {
        method: s.method,
        path: typeof s.path === "string" ? s.path : "/",
        setupRequest: (req) => {
          const r = Math.random();
          const shorten = s.uniqueBodies || (s.mix !== undefined && r < s.mix.shorten);
          const stats = s.mix !== undefined && !shorten && r < s.mix.shorten + s.mix.stats;
          if (pick) req.path = `/${pick.codes[Math.floor(Math.random() * pick.codes.length)]}${stats ? "/stats" : (pick.suffix ?? "")}`;
          if (s.mix) Object.assign(req, { method: "GET", body: undefined });
          if (shorten) {
            Object.assign(req, { method: "POST", path: "/shorten" });
            req.headers = { ...req.headers, "content-type": "application/json" };
            req.body = JSON.stringify({ url: `https://example.com/bench/ac/${process.pid}/${n++}` });
          }
          return req;
        },
        // Told apart by their answer (mixed.lua does the same): only a lookup's is {"url": ...}.
        onResponse: s.mix ? (status, body) => void (status === 200 && body.startsWith('{"url"') && lookupsOk++) : undefined,
      },
    ],
  });
  return {
    rps: result.requests.total / (result.duration || o.seconds),
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result["2xx"],
    failed: result.non2xx + result.errors + result.timeouts,
    ...(s.mix ? { lookupsOk } : {}),
  };
}
