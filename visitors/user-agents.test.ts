import { describe, expect, test } from "vitest";
import { otherBot } from "./bot-names";
import { agentOf, classifyAgent, longestRead, parseable } from "./user-agents";

const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const ipad = "Mozilla/5.0 (iPad; CPU OS 16_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.0 Mobile/15E148 Safari/604.1";

describe("agentOf", () => {
  test("a person's browser: its browser, OS and device type; no device type is a desktop", () => {
    expect(agentOf(chrome)).toMatchObject({ bot: false, browser: "Chrome", os: "Windows", device: "desktop" });
    expect(agentOf(iphone)).toMatchObject({ bot: false, browser: "Mobile Safari", os: "iOS", device: "mobile" });
    expect(agentOf(ipad)).toMatchObject({ bot: false, device: "tablet" });
  });

  test.each([
    ["curl/8.5.0", "curl"],
    ["Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"],
    ["facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", "facebookexternalhit"],
    ["Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", "Slackbot"],
    ["WhatsApp/2.23.20.0", "WhatsApp"],
    ["python-requests/2.31.0", "python-requests"],
    ["Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)", "GPTBot"],
  ])("%s is a bot named %s, device bot", (ua, name) => {
    expect(agentOf(ua)).toMatchObject({ bot: true, browser: name, device: "bot" });
  });

  test("a bot not in the known list is named other bot, whatever its header says", () => {
    for (const ua of ["Zorgbot/1.0", "MyCrawler-7f3a/2.0 (+http://example.com/bot)", "spider-9981", "Mozilla/5.0 (compatible; x1y2z3bot)"]) {
      expect(agentOf(ua)).toMatchObject({ bot: true, browser: otherBot, device: "bot" });
    }
  });

  test("no User-Agent at all is a bot's: browsers always send one", () => {
    expect(agentOf(undefined)).toMatchObject({ bot: true, device: "bot" });
    expect(agentOf("")).toMatchObject({ bot: true, device: "bot" });
  });

  test(`only an agent's first ${longestRead} characters are read`, () => {
    const long = chrome + " " + "Edg/120.0.0.0 ".repeat(40);
    expect(agentOf(long)).toBe(agentOf(long.slice(0, longestRead)));
    expect(agentOf(long)).toBe(agentOf(long.slice(0, longestRead) + " different tail"));
  });

  test("browsers' agents are parsed; a header repeating a word or full of spaces is unknown without the parser", () => {
    const instagram =
      "Mozilla/5.0 (Linux; Android 9; SM-A102U Build/PPR1.180610.011; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/74.0.3729.136 Mobile Safari/537.36 Instagram 155.0.0.37.107 Android (28/9; 320dpi; 720x1468; samsung; SM-A102U; a10e; exynos7885; en_US; 239490550)";
    for (const ua of [chrome, iphone, ipad, instagram.slice(0, longestRead)]) expect(parseable(ua), ua).toBe(true);
    for (const ua of ["Android".repeat(30), "a ".repeat(60)]) expect(parseable(ua), ua).toBe(false);
    for (const ua of ["Mozilla/5.0 (Linux; Android 10) " + "Android 1.0; ".repeat(15), "Mozilla/5.0 (" + " ".repeat(100)]) {
      expect(parseable(ua), ua).toBe(false);
      expect(classifyAgent(ua)).toMatchObject({ bot: false, browser: "unknown", os: "unknown", device: "unknown" });
    }
  });

  test("a curl with any suffix is curl: a known name is matched anywhere in the header", () => {
    expect(agentOf("curlx123").browser).toBe("curl");
    expect(agentOf("curlx9f8e7d").browser).toBe("curl");
  });

  test("the same agent twice is the same answer (the second from the cache)", () => {
    expect(agentOf(chrome)).toBe(agentOf(chrome));
  });
});
