import { appMeta } from "encore.dev";

/**
 * A code's short link: on its custom domain `https://<domain>/<code>`, with the scheme of
 * the instance's own address (PUBLIC_BASE_URL): a domain is served as the instance is
 * (https behind the same proxy in production; http on a development machine). Without one,
 * the instance's own address and the code.
 */
export function shortUrlOf(code: string, domain: string | null, baseUrl: string = appMeta().apiBaseUrl): string {
  if (domain === null) return `${baseUrl}/${code}`;
  return `${new URL(baseUrl).protocol}//${domain}/${code}`;
}
