/**
 * Name conventions. Requests carry a canonical snake_case name while JavaScript code usually
 * defines camelCase, and some Python sources define camelCase too; these helpers let a name match
 * across the conventions.
 */

/** Rank of a match: 0 exact, 1 the wanted name converted, 2 the defined name converted, 3 case/underscores ignored. */
export type MatchRank = 0 | 1 | 2 | 3;

/** `twoSum` → `two_sum`, `parseHTTPResponse` → `parse_http_response`, `Strongest_Extension` → `strongest_extension`. */
export function toSnakeCase(name: string): string {
  const lead = /^_*/.exec(name)?.[0] ?? '';
  const body = name
    .slice(lead.length)
    // An acronym ends where a capital starts a lower-case word: HTTPResponse → HTTP_Response.
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1_$2')
    .replace(/([\p{Ll}\p{Nd}])(\p{Lu})/gu, '$1_$2')
    .replace(/_+/g, '_')
    .toLowerCase();
  return lead + body;
}

/** `two_sum` → `twoSum`; leading underscores and the first word's case are kept. */
export function toCamelCase(name: string): string {
  const lead = /^_*/.exec(name)?.[0] ?? '';
  const words = name
    .slice(lead.length)
    .split('_')
    .filter((word) => word.length > 0);
  const [first = '', ...rest] = words;
  return lead + first + rest.map((word) => word[0].toUpperCase() + word.slice(1)).join('');
}

/** The loosest form: lower case without underscores (`Two_Sum`, `twoSum`, `two_sum` → `twosum`). */
export function normaliseName(name: string): string {
  return name.replace(/_/g, '').toLowerCase();
}

/**
 * How well a defined name answers to a wanted one; lower is better, `false` is no match.
 * Converting the wanted name ranks above converting the defined one, because the request states
 * intent while the code may contain look-alike helpers.
 */
export function nameMatches(defined: string, wanted: string): MatchRank | false {
  if (defined === wanted) return 0;
  if (toCamelCase(wanted) === defined || toSnakeCase(wanted) === defined) return 1;
  if (toSnakeCase(defined) === wanted || toCamelCase(defined) === wanted) return 2;
  if (normaliseName(defined) === normaliseName(wanted)) return 3;
  return false;
}
