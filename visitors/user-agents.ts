import { isbot } from "isbot";
import { LRUCache } from "lru-cache";
import UAParser from "ua-parser-js";
import { botNameOf } from "./bot-names";
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
 * Parsing a User-Agent costs about 40 µs (ua-parser-js and isbot's patterns), more than
 * answering a cached redirect; real traffic repeats a few hundred agents, so each is
 * parsed once and remembered (2,000 of them, each at most `longestRead` characters).
 */
const cache = new LRUCache<string, Agent>({ max: 2000 });

/**
 * Only an agent's first 256 characters are read: browsers send 100 to 300, the
 * information first. The header is the client's to write, and the parser's patterns
 * cost up to the square of its length.
 */
export const longestRead = 256;

/**
 * Classifies a User-Agent: a bot by isbot's list (crawlers, link previews and
 * checkers, HTTP libraries and command-line clients) or by sending none, named from a
 * known list (bot-names.ts); otherwise its browser, OS and device type by ua-parser-js,
 * where no device type means a desktop browser.
 */
export function agentOf(userAgent: string | undefined): Agent {
  if (!userAgent) return noAgent;
  const read = userAgent.length > longestRead ? userAgent.slice(0, longestRead) : userAgent;
  let agent = cache.get(read);
  if (agent === undefined) {
    agent = classifyAgent(read);
    cache.set(read, agent);
  }
  return agent;
}

/** What `userAgent` (at most `longestRead` characters) tells, uncached. */
export function classifyAgent(userAgent: string): Agent {
  if (isbot(userAgent)) return agent(true, botNameOf(userAgent), unknown, "bot");
  if (!parseable(userAgent)) return agent(false, unknown, unknown, unknown);
  const parser = new UAParser(userAgent);
  const browser = parser.getBrowser().name;
  const os = parser.getOS().name;
  const device = parser.getDevice().type ?? (browser || os ? "desktop" : unknown);
  return agent(false, cleanValue(browser), cleanValue(os), cleanValue(device));
}

function agent(bot: boolean, browser: string, os: string, device: string): Agent {
  return Object.freeze({ bot, browser, os, device, part: agentPart(bot, browser, os, device) });
}

/** Most spaces `parseable` admits: a browser's agent has 10 to 30. */
const mostSpaces = 40;
/** Most times one three-character sequence of letters and digits may recur: a browser's repeats a few ("537", "and"). */
const mostRepeats = 4;

/**
 * Whether ua-parser-js may read `userAgent` (at most `longestRead` characters) at about
 * the cost of a browser's: many of its patterns scan the rest of the header from each
 * place a word such as "droid" or a space occurs, so a header repeating one many times
 * costs up to 20 times as much. No browser sends such a header: it is classified as
 * unknown without the parser. One pass, letters folded to lower case.
 */
export function parseable(userAgent: string): boolean {
  let spaces = 0;
  const seen = new Map<number, number>();
  let a = -1; // the last two letters or digits, as char codes; -1 after anything else
  let b = -1;
  for (let i = 0; i < userAgent.length; i++) {
    let c = userAgent.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (a >= 0) {
        const key = (a << 16) | (b << 8) | c;
        const n = (seen.get(key) ?? 0) + 1;
        if (n > mostRepeats) return false;
        seen.set(key, n);
      }
      a = b;
      b = c;
    } else {
      if (c === 32 && ++spaces > mostSpaces) return false;
      a = b = -1;
    }
  }
  return true;
}
