/**
 * The page a browser gets from the dashboard without access: what to do, in plain words,
 * rather than an app that fails on every call. Self-contained (no script, no other file),
 * since nothing else is served without access.
 */
export function accessPage(why: "no access" | "wrong link", link: string): string {
  const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const [title, lead] =
    why === "wrong link"
      ? ["This link is from another run", "The secret in this link (or in your browser's cookie) is not this run's: <code>encore-selfhost run</code> draws a new one each time it starts."]
      : ["Open the link from your terminal", "The development dashboard can call the app's internal endpoints and read its databases, so it opens only for the developer who started it."];
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Development dashboard: ${escape(title.toLowerCase())}</title>
<body style="font-family: system-ui, sans-serif; max-width: 42rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5">
<h1>${escape(title)}</h1>
<p>${lead}</p>
<p>When it started, <code>encore-selfhost run</code> (<code>npm run dev</code>) printed a link with a secret in it, in the terminal it runs in:</p>
<pre style="padding: 0.75rem 1rem; border: 1px solid #8884; border-radius: 6px; overflow-x: auto">[run] development dashboard: ${escape(link)}</pre>
<p>Open that link. Your browser then keeps access for this session, across the app's restarts after each change; a new start of <code>run</code> prints a new link.</p>
</body>
</html>
`;
}
