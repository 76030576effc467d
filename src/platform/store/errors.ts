/** What PostgreSQL (and PGlite) said when it refused a statement, found under the driver's and Drizzle's wrappers. */
export function databaseRefusal(error: unknown): { code: string; constraint?: string } | undefined {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const { code, constraint } = current as { code?: unknown; constraint?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return { code, ...(typeof constraint === 'string' ? { constraint } : {}) };
  }
  return undefined;
}

/** A unique constraint refused the write (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): boolean {
  return databaseRefusal(error)?.code === '23505';
}
