// What every configuration section shares: the error naming the variable, and the
// parsers of values that more than one section reads.

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`invalid configuration: ${variable} ${problem}`);
    this.name = "ConfigError";
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

export function parseBool(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw.trim() === "") return fallback;
  const v = raw.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(v)) return true;
  if (["0", "false", "no", "off"].includes(v)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

/** An absolute http(s) URL, parsed; null when unset. */
export function parseHttpUrl(name: string, raw: string | undefined): URL | null {
  if (raw === undefined || raw.trim() === "") return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError(name, `must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigError(name, `must use http or https, got "${url.protocol}"`);
  return url;
}
