import { CLIENT_LANGS, langOf, langOfFile, type ClientLang } from "../internal/clientgen/mod.ts";

/** `gen client`'s flags, as `encore gen client` names them. */
export interface ClientArgs {
  readonly lang: ClientLang;
  /** Null: standard output. */
  readonly output: string | null;
  readonly services: string[];
  readonly excludedServices: string[];
  readonly tags: string[];
  readonly excludedTags: string[];
}

export const CLIENT_USAGE = `encore-selfhost gen client [--lang typescript|javascript|openapi] [--output <file>]
        [--services a,b] [--excluded-services a,b] [--tags a,b] [--excluded-tags a,b]

Generates a client for the app's exposed endpoints, in the shape of Encore's
\`encore gen client\`, so front ends written against Encore's client work unchanged.
  -l, --lang               typescript (ts), javascript (js) or openapi; inferred from the
                           output's extension (.ts, .js) when absent
  -o, --output             the file to write; standard output without it
  -s, --services           only these services (comma-separated, or repeated)
  -x, --excluded-services  leave these services out
  -t, --tags               only endpoints with one of these tags
      --excluded-tags      leave out endpoints with any of these tags
Internal (expose: false) and static endpoints are never in a client. Streaming
endpoints are refused: leave them out with --excluded-services or --excluded-tags.`;

type ListFlag = "services" | "excludedServices" | "tags" | "excludedTags";
const LIST_FLAGS: Readonly<Record<string, ListFlag>> = {
  "--services": "services", "-s": "services",
  "--excluded-services": "excludedServices", "-x": "excludedServices",
  "--tags": "tags", "-t": "tags",
  "--excluded-tags": "excludedTags",
};

/** The parsed flags, or a message saying what is wrong with them. */
export function parseClientArgs(args: readonly string[]): ClientArgs | { readonly error: string } {
  let lang: string | undefined;
  let output: string | undefined;
  const lists: Record<ListFlag, string[]> = { services: [], excludedServices: [], tags: [], excludedTags: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    // Encore's flag, without effect here: internal endpoints are never in the document.
    if (flag === "--openapi-exclude-private-endpoints") continue;
    const known = flag === "--lang" || flag === "-l" || flag === "--output" || flag === "-o" || flag in LIST_FLAGS;
    if (!known) {
      return { error: arg.startsWith("-") ? `unknown flag "${flag}"` : `unexpected argument "${arg}" (an app is read from the current folder; Encore's app ID argument is not supported)` };
    }
    let value: string | undefined = eq === -1 ? args[++i] : arg.slice(eq + 1);
    if (value === undefined || (eq === -1 && value.startsWith("-"))) return { error: `flag ${flag} needs a value` };
    value = value.trim();
    if (flag === "--lang" || flag === "-l") lang = value;
    else if (flag === "--output" || flag === "-o") output = value;
    else lists[LIST_FLAGS[flag]!].push(...value.split(",").map((v) => v.trim()).filter(Boolean));
  }
  if (lang === undefined && output === undefined) return { error: "specify at least one of --output or --lang" };
  let resolved: ClientLang | undefined;
  if (lang !== undefined) {
    resolved = langOf(lang);
    if (!resolved) return { error: `unknown language "${lang}": supported languages are ${CLIENT_LANGS.join(", ")}` };
  } else {
    resolved = langOfFile(output!);
    if (!resolved) return { error: `could not detect the language from the output "${output}"; give it with --lang (${CLIENT_LANGS.join(", ")})` };
  }
  return { lang: resolved, output: output ?? null, ...lists };
}
