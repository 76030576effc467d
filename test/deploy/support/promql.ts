/** Prometheus keywords and aggregation modifiers that look like names but are not metrics. */
const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'inf',
  'nan',
]);

/**
 * The metric names a PromQL expression selects: identifiers left once strings, label matchers,
 * range and subquery brackets and label lists are removed, that are neither keywords nor followed
 * by `(` (functions and aggregations).
 */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const match of bare.matchAll(/[A-Za-z_:][\w:]*/g)) {
    const after = bare.slice(match.index + match[0].length).trimStart();
    if (!after.startsWith('(') && !KEYWORDS.has(match[0].toLowerCase()) && !/\d$/.test(bare[match.index - 1] ?? '')) names.add(match[0]);
  }
  return [...names];
}

/**
 * The series names a /metrics exposition offers: each `# TYPE` family, with the _bucket, _sum and
 * _count series of histograms and the _sum and _count of summaries.
 */
export function exposedNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(name + suffix);
  }
  return names;
}
