// The site's pages by name, as a template engine's views would be: "index" for "/",
// and a folder's pages under its name.
const PAGES: Record<string, string> = {
  index: "<h1>Welcome</h1><p>Start with the <a href=\"/guides/getting-started\">guide</a>.</p>",
  about: "<h1>About</h1><p>A small site on a fallback route.</p>",
  "guides/getting-started": "<h1>Getting started</h1><p>Read the <a href=\"/docs/\">docs</a>.</p>",
};

/** The page of that name; undefined when there is none. */
export function pageFor(name: string): string | undefined {
  return Object.hasOwn(PAGES, name) ? PAGES[name] : undefined;
}

const TOPICS: Record<string, string> = {
  index: "Contents",
  routing: "Routing",
  "routing/fallbacks": "Fallback routes",
};

/** The title of a docs topic; undefined when there is none. */
export function topicTitle(name: string): string | undefined {
  return Object.hasOwn(TOPICS, name) ? TOPICS[name] : undefined;
}
