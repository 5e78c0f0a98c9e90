import { isbot, isbotMatch } from "isbot";
import { LRUCache } from "lru-cache";
import UAParser from "ua-parser-js";
import { agentPart, cleanValue, unknown } from "./dimensions";

/** What a User-Agent tells of a click. */
export interface Agent {
  readonly bot: boolean;
  readonly browser: string;
  readonly os: string;
  readonly device: string;
  /** The above as a click's details text holds them (dimensions.ts agentPart). */
  readonly part: string;
}

/** No browser sends no User-Agent: scripts and checkers do. */
const noAgent: Agent = agent(true, unknown, unknown, "bot");

/**
 * Parsing a User-Agent costs about 18 µs (ua-parser-js and isbot's patterns), as
 * much as answering a cached redirect; real traffic repeats a few hundred agents, so
 * each is parsed once and remembered. Only an agent's first 512 characters are read
 * (browsers send under 300): a client's header must not decide the parse's cost or
 * the cache's size (2,000 × 512 characters at most).
 */
const cache = new LRUCache<string, Agent>({ max: 2000 });
const longestRead = 512;

/**
 * Classifies a User-Agent: a bot by isbot's list (crawlers, link previews and
 * checkers, HTTP libraries and command-line clients) or by sending none; otherwise
 * its browser, OS and device type by ua-parser-js, where no device type means a
 * desktop browser.
 */
export function agentOf(userAgent: string | undefined): Agent {
  if (!userAgent) return noAgent;
  const read = userAgent.length > longestRead ? userAgent.slice(0, longestRead) : userAgent;
  let agent = cache.get(read);
  if (agent === undefined) {
    agent = classify(read);
    cache.set(read, agent);
  }
  return agent;
}

function classify(userAgent: string): Agent {
  const parsed = new UAParser(userAgent).getResult();
  if (isbot(userAgent)) return agent(true, botName(userAgent), cleanValue(parsed.os.name), "bot");
  const device = parsed.device.type ?? (parsed.browser.name || parsed.os.name ? "desktop" : unknown);
  return agent(false, cleanValue(parsed.browser.name), cleanValue(parsed.os.name), cleanValue(device));
}

function agent(bot: boolean, browser: string, os: string, device: string): Agent {
  return Object.freeze({ bot, browser, os, device, part: agentPart(bot, browser, os, device) });
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
