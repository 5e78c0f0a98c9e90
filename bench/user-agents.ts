// What classifying one User-Agent (visitors/user-agents.ts, uncached) costs for
// crafted headers, as a ratio to a desktop Chrome's in the same run: each figure is the
// median of 15 rounds, each round timing Chrome, the header, and Chrome again.
//   node --import tsx bench/user-agents.ts
import { classifyAgent, longestRead } from "../visitors/user-agents";

const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const instagram =
  "Mozilla/5.0 (Linux; Android 9; SM-A102U Build/PPR1.180610.011; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/74.0.3729.136 Mobile Safari/537.36 Instagram 155.0.0.37.107 Android (28/9; 320dpi; 720x1468; samsung; SM-A102U; a10e; exynos7885; en_US; 239490550)";
const repeat = (s: string, n = 512) => s.repeat(Math.ceil(n / s.length)).slice(0, n);
/** Distinct words ending in "oid", spaced: as many places to scan from as the repeat check lets through. */
const oids = Array.from({ length: 60 }, (_, i) => `${String.fromCharCode(97 + (i % 26))}${i}oid`).join(" ");

const headers: Record<string, string> = {
  "Instagram in-app (272 chars)": instagram,
  "Android repeated": repeat("Android"),
  '"Android 1.0; " repeated': repeat("Android 1.0; "),
  "Mozilla/5.0 ( then spaces": "Mozilla/5.0 (" + " ".repeat(499),
  '"a " repeated': repeat("a "),
  "distinct words ending in oid": oids,
  "Build/ repeated": "Mozilla/5.0 (Linux; U; Android 4.0; " + repeat("a ", 470) + "Build/",
  "curlx123 + random suffix": "curlx123" + Math.random().toString(36).slice(2),
  "x × 512": "x".repeat(512),
};

function time(ua: string, n = 300): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) classifyAgent(ua.slice(0, longestRead));
  return Number(process.hrtime.bigint() - start) / n;
}

function ratio(ua: string): number {
  for (let i = 0; i < 100; i++) {
    time(ua, 1);
    time(chrome, 1);
  }
  const rounds: number[] = [];
  for (let k = 0; k < 15; k++) {
    const a = time(chrome);
    const b = time(ua);
    const c = time(chrome);
    rounds.push((2 * b) / (a + c));
  }
  return rounds.sort((x, y) => x - y)[7];
}

console.log(`desktop Chrome: ${(time(chrome, 3000) / 1000).toFixed(1)} µs a classification`);
for (const [name, ua] of Object.entries(headers)) console.log(`${name.padEnd(32)} ${ratio(ua).toFixed(2)}×`);
