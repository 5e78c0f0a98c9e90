import { agentOf } from "./user-agents";

/**
 * The bots that fetch a link to draw its preview where it is shared, by their names in
 * bot-names.ts (the list analytics names bots by). iMessage sends facebookexternalhit's and
 * Twitterbot's names; Applebot draws Siri's and Spotlight's. Search crawlers (Googlebot,
 * bingbot, ...) are left out on purpose: they follow the redirect to index the target,
 * not a page of this app's.
 */
export const previewBotNames: ReadonlySet<string> = new Set([
  "facebookexternalhit",
  "Facebot",
  "Twitterbot",
  "LinkedInBot",
  "Slackbot",
  "Discordbot",
  "TelegramBot",
  "WhatsApp",
  "Pinterestbot",
  "redditbot",
  "SkypeUriPreview",
  "Mastodon",
  "Embedly",
  "Applebot",
]);

/**
 * Whether `userAgent` is a link-preview bot's. Classified as a click's agent is (agentOf:
 * isbot, then the name), from the same cache, so the agent a click has just been described
 * by costs a map read.
 */
export function isPreviewBot(userAgent: string | undefined): boolean {
  const agent = agentOf(userAgent);
  return agent.bot && previewBotNames.has(agent.browser);
}
