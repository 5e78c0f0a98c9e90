// Clicks through the proxy while replicas are replaced: `clients` loops of GET /:code over
// the given codes, each counting what it got back per code. Stopping waits for every
// request in flight, so the tally holds every request sent.
export interface Tally {
  /** Answered clicks (200 for an API client), per code: what the stored counts must equal. */
  readonly clicks: Map<string, number>;
  /** Any other answer, or none: each a failed request. */
  readonly failures: string[];
  readonly sent: number;
}

export function clickLoad(proxyUrl: string, codes: readonly string[], clients = 8): { stop(): Promise<Tally> } {
  const clicks = new Map(codes.map((code) => [code, 0]));
  const failures: string[] = [];
  let sent = 0;
  let running = true;
  const loop = async (offset: number) => {
    for (let i = offset; running; i++) {
      const code = codes[i % codes.length]!;
      sent++;
      try {
        const res = await fetch(`${proxyUrl}/${code}`, { signal: AbortSignal.timeout(15_000) });
        await res.arrayBuffer();
        if (res.status === 200) clicks.set(code, clicks.get(code)! + 1);
        else failures.push(`GET /${code}: ${res.status}`);
      } catch (err) {
        failures.push(`GET /${code}: ${(err as Error).message}`);
      }
    }
  };
  const loops = Array.from({ length: clients }, (_, i) => loop(i));
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return { clicks, failures, sent };
    },
  };
}
