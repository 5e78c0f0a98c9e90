/**
 * The SQL expression of a link's webhook data (`data` of link.created, link.updated and
 * link.deleted) from a row of urls named `row`: what the link is, never its password hash.
 * Plain text spliced into a statement: `row` is always a name written in this folder.
 */
export function linkEventData(row: string): string {
  return `jsonb_build_object(
    'code', ${row}.code, 'url', ${row}.original_url, 'workspaceId', ${row}.workspace_id,
    'title', ${row}.title, 'description', ${row}.description,
    'expiresAt', ${row}.expires_at, 'maxClicks', ${row}.max_clicks, 'domain', ${row}.domain)`;
}
