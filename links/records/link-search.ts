/**
 * The SQL condition of a search by `pattern` (an ILIKE pattern, a parameter such as `$2`: see
 * containsPattern) over the link rows of `table`: its code, URL or title holds it, in any
 * case. Written as one ILIKE over the three joined by line breaks, the expression url
 * migration 19's trigram index (urls_workspace_search_idx) is on, so the planner can answer it
 * from that index. A code or URL never holds a line break (codes are letters, digits, - and
 * _; URLs are stored WHATWG-normalised), so a pattern without one matches the joined text
 * exactly when it matches one of the three; a pattern with one can only match within a
 * title, which the second condition then asks for. PostgreSQL folds that condition away when
 * the pattern has no line break, as it plans each statement with its parameters' values.
 */
export function searchCondition(table: string, pattern: string): string {
  return `((${table}.code || E'\\n' || ${table}.original_url || E'\\n' || coalesce(${table}.title, '')) ILIKE ${pattern} ESCAPE '\\'
    AND (strpos(${pattern}, E'\\n') = 0 OR ${table}.title ILIKE ${pattern} ESCAPE '\\'))`;
}

/** An ILIKE pattern matching `text` anywhere, its own % and _ (and the escape character) taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, "\\$&")}%`;
}
