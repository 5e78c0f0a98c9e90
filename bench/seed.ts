// Links created through the API before a measurement, as users would create them.
import { phase } from "./http-client.ts";

/**
 * Creates `n` links through the API, 64 at a time, and returns their codes. Each is
 * then looked up once with HEAD (which counts no click): a link is cached on its
 * first lookup, and the lookup figures are meant for links already in the cache;
 * a 5-second run reaches only part of 100,000 codes, so it would not warm it itself.
 * `options` go into every link's body (targeting rules, for (g)).
 */
export async function seed(baseUrl: string, n: number, options: Record<string, unknown> = {}): Promise<string[]> {
  const client = phase();
  const codes: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const res = await client.send("POST", `${baseUrl}/shorten`, JSON.stringify({ url: `https://example.com/seed/${i}`, ...options }));
      if (res.status !== 200) throw new Error(`seeding failed: ${res.status} ${res.body}`);
      const { code } = JSON.parse(res.body) as { code: string };
      const head = await client.send("HEAD", `${baseUrl}/${code}`);
      if (head.status !== 200) throw new Error(`warming the cache failed: ${head.status} for ${code}`);
      codes.push(code);
    }
  };
  try {
    await Promise.all(Array.from({ length: 64 }, worker));
  } finally {
    client.end();
  }
  return codes;
}
