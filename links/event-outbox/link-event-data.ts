/**
 * The SQL expression of a link's webhook data (`data` of link.created, link.updated and
 * link.deleted) from a row of urls named `row`: what the link is, as its `Link` says it (rules
 * as stored: the same shape), never its password hash.
 * Plain text spliced into a statement: `row` is always a name written in this folder.
 */
export function linkEventData(row: string): string {
  return `jsonb_build_object(
    'code', ${row}.code, 'url', ${row}.original_url, 'workspaceId', ${row}.workspace_id,
    'title', ${row}.title, 'description', ${row}.description,
    'expiresAt', ${row}.expires_at, 'maxClicks', ${row}.max_clicks, 'domain', ${row}.domain,
    'redirectType', ${row}.redirect_type, 'forwardQuery', ${row}.forward_query, 'startsAt', ${row}.starts_at,
    'fallbackUrl', ${row}.fallback_url, 'allowIndexing', ${row}.allow_indexing,
    'rules', COALESCE(${row}.redirect_rules, '[]'::jsonb),
    'preview', NULLIF(jsonb_strip_nulls(jsonb_build_object(
      'title', ${row}.preview_title, 'description', ${row}.preview_description, 'image', ${row}.preview_image)), '{}'::jsonb))`;
}
