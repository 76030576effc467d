/** A row as the API answers it: timestamps as ISO 8601 UTC strings, the owning workspace left out. */
export type Presented<Row> = { [K in Exclude<keyof Row, 'workspace_id'>]: Row[K] extends Date ? string : Row[K] };

export function present<Row extends { workspace_id: string }>(row: Row): Presented<Row> {
  const { workspace_id: _owner, ...fields } = row;
  return Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]),
  ) as Presented<Row>;
}
