import { describe, expect, test } from "vitest";
import { agentOf } from "./user-agents";

const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const ipad = "Mozilla/5.0 (iPad; CPU OS 16_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.0 Mobile/15E148 Safari/604.1";

describe("agentOf", () => {
  test("a person's browser: its browser, OS and device type; no device type is a desktop", () => {
    expect(agentOf(chrome)).toEqual({ bot: false, browser: "Chrome", os: "Windows", device: "desktop" });
    expect(agentOf(iphone)).toEqual({ bot: false, browser: "Mobile Safari", os: "iOS", device: "mobile" });
    expect(agentOf(ipad)).toMatchObject({ bot: false, device: "tablet" });
  });

  test.each([
    ["curl/8.5.0", "curl"],
    ["Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"],
    ["facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", "facebookexternalhit"],
    ["Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", "Slackbot-LinkExpanding"],
    ["WhatsApp/2.23.20.0", "WhatsApp"],
    ["python-requests/2.31.0", "python-requests"],
  ])("%s is a bot named %s, device bot", (ua, name) => {
    expect(agentOf(ua)).toMatchObject({ bot: true, browser: name, device: "bot" });
  });

  test("no User-Agent at all is a bot's: browsers always send one", () => {
    expect(agentOf(undefined)).toMatchObject({ bot: true, device: "bot" });
    expect(agentOf("")).toMatchObject({ bot: true, device: "bot" });
  });

  test("the same agent twice is the same answer (the second from the cache)", () => {
    expect(agentOf(chrome)).toBe(agentOf(chrome));
  });
});
