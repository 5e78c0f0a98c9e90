/**
 * The bots a link's analytics name: well-known crawlers, link previews, AI fetchers,
 * monitors, HTTP libraries and command-line clients, each as [name, pattern matched
 * case-insensitively anywhere in the User-Agent]. Earlier entries win
 * ("facebookexternalhit" before "Facebot"). Every other bot is `otherBot`: a name
 * taken from the header would let a client mint a new value per click.
 */
const knownBots: readonly (readonly [name: string, pattern: string])[] = [
  ["Googlebot", "googlebot|google-inspectiontool|googleother|adsbot-google|mediapartners-google|apis-google"],
  ["Google Read Aloud", "google-read-aloud"],
  ["bingbot", "bingbot|bingpreview|adidxbot"],
  ["Applebot", "applebot"],
  ["DuckDuckBot", "duckduckbot|duckassistbot"],
  ["YandexBot", "yandex(?:bot|images|mobilebot)"],
  ["Baiduspider", "baiduspider"],
  ["facebookexternalhit", "facebookexternalhit|facebookcatalog|meta-externalagent"],
  ["Facebot", "facebot"],
  ["Twitterbot", "twitterbot"],
  ["LinkedInBot", "linkedinbot"],
  ["Slackbot", "slackbot|slack-imgproxy"],
  ["Discordbot", "discordbot"],
  ["TelegramBot", "telegrambot"],
  ["WhatsApp", "whatsapp"],
  ["Pinterestbot", "pinterest"],
  ["redditbot", "redditbot"],
  ["SkypeUriPreview", "skypeuripreview"],
  ["Mastodon", "mastodon"],
  ["Embedly", "embedly"],
  ["GPTBot", "gptbot|chatgpt-user|oai-searchbot"],
  ["ClaudeBot", "claudebot|claude-user|anthropic-ai"],
  ["PerplexityBot", "perplexity"],
  ["AhrefsBot", "ahrefs"],
  ["SemrushBot", "semrush"],
  ["MJ12bot", "mj12bot"],
  ["PetalBot", "petalbot"],
  ["UptimeRobot", "uptimerobot"],
  ["HeadlessChrome", "headlesschrome"],
  ["curl", "curl"],
  ["Wget", "wget"],
  ["python-requests", "python-requests"],
  ["Python", "python-urllib|aiohttp|httpx"],
  ["Go-http-client", "go-http-client"],
  ["okhttp", "okhttp"],
  ["axios", "axios"],
  ["node-fetch", "node-fetch|undici"],
  ["Java", "java/|apache-httpclient"],
];

/** Every bot not in the list above. */
export const otherBot = "other bot";

/** The names, in the list's order: a match's group number picks one. */
export const knownBotNames: readonly string[] = knownBots.map(([name]) => name);

// One pass over the header for all of them: a group per entry, its number its name.
const anyKnownBot = new RegExp(knownBots.map(([, pattern]) => `(${pattern})`).join("|"), "i");

/** The known name of a bot's User-Agent, or `otherBot`. */
export function botNameOf(userAgent: string): string {
  const match = anyKnownBot.exec(userAgent);
  if (match === null) return otherBot;
  const group = match.findIndex((g, i) => i > 0 && g !== undefined);
  return knownBotNames[group - 1];
}
