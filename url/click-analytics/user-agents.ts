import { isbot, isbotMatch } from "isbot";
import { LRUCache } from "lru-cache";
import UAParser from "ua-parser-js";
import { cleanValue, unknown } from "./dimensions";

/** What a User-Agent tells of a click. */
export interface Agent {
  readonly bot: boolean;
  readonly browser: string;
  readonly os: string;
  readonly device: string;
}

/** No browser sends no User-Agent: scripts and checkers do. */
const noAgent: Agent = Object.freeze({ bot: true, browser: unknown, os: unknown, device: "bot" });

/**
 * Parsing a User-Agent costs about 18 µs (ua-parser-js and isbot's patterns), as
 * much as answering a cached redirect; real traffic repeats a few hundred agents, so
 * each is parsed once and remembered. Longer agents than any browser sends are
 * parsed each time rather than kept: a client could fill the cache with them.
 */
const cache = new LRUCache<string, Agent>({ max: 2000 });
const longestCached = 512;

/**
 * Classifies a User-Agent: a bot by isbot's list (crawlers, link previews and
 * checkers, HTTP libraries and command-line clients) or by sending none; otherwise
 * its browser, OS and device type by ua-parser-js, where no device type means a
 * desktop browser.
 */
export function agentOf(userAgent: string | undefined): Agent {
  if (!userAgent) return noAgent;
  const known = cache.get(userAgent);
  if (known !== undefined) return known;
  const agent = classify(userAgent);
  if (userAgent.length <= longestCached) cache.set(userAgent, agent);
  return agent;
}

function classify(userAgent: string): Agent {
  const parsed = new UAParser(userAgent).getResult();
  if (isbot(userAgent)) return { bot: true, browser: botName(userAgent), os: cleanValue(parsed.os.name), device: "bot" };
  const device = parsed.device.type ?? (parsed.browser.name || parsed.os.name ? "desktop" : unknown);
  return { bot: false, browser: cleanValue(parsed.browser.name), os: cleanValue(parsed.os.name), device: cleanValue(device) };
}

/**
 * A bot's name: the product token of its agent that isbot recognised, without its
 * version ("Googlebot/2.1" → "Googlebot", "curl/8.5.0" → "curl"), so a bot's clicks
 * add up under one name across its versions.
 */
function botName(userAgent: string): string {
  const match = isbotMatch(userAgent)?.toLowerCase();
  if (!match) return unknown;
  const token = userAgent.split(/[\s;()]+/).find((t) => t.toLowerCase().includes(match)) ?? match;
  return cleanValue(token.split("/")[0]);
}
