/**
 * The one scope table. The spec names scopes in three forms; each name a key may be created with
 * maps to one or more canonical scopes, and only canonical scopes are stored and checked.
 */
export const SCOPES = [
  'sessions:read',
  'sessions:write',
  'sessions:delete',
  'participants:read',
  'participants:write',
  'participants:delete',
  'roles:read',
  'roles:write',
  'roles:delete',
  'rounds:read',
  'rounds:write',
  'rounds:delete',
  'interviewers:read',
  'interviewers:write',
  'interviewers:delete',
  'programs:read',
  'programs:write',
  'webhooks:write',
  'usage:read',
] as const;
export type Scope = (typeof SCOPES)[number];

const crud = (canonical: string, names: string[], sep: ':' | '.', actions: string[]) =>
  Object.fromEntries(names.flatMap((name) => actions.map((action) => [`${name}${sep}${action}`, [`${canonical}:${action}`]])));

/** Every accepted name (lower case) → the canonical scopes it grants. */
const SCOPE_ALIASES: Readonly<Record<string, readonly Scope[]>> = {
  ...crud('sessions', ['sessions'], ':', ['read', 'write', 'delete']),
  ...crud('participants', ['participants'], ':', ['read', 'write', 'delete']),
  ...crud('participants', ['candidates'], '.', ['read', 'write', 'delete']),
  ...crud('roles', ['roles', 'role', 'templates'], ':', ['read', 'write', 'delete']),
  ...crud('roles', ['evaluation_templates'], '.', ['read', 'write', 'delete']),
  ...crud('rounds', ['rounds', 'round'], ':', ['read', 'write', 'delete']),
  ...crud('rounds', ['evaluation_stages'], '.', ['read', 'write', 'delete']),
  ...crud('interviewers', ['interviewers', 'interviewer'], ':', ['read', 'write', 'delete']),
  ...crud('interviewers', ['interviewers'], '.', ['read', 'write', 'delete']),
  ...crud('programs', ['programs'], ':', ['read', 'write']),
  ...crud('programs', ['programs'], '.', ['read', 'write']),
  ...crud('webhooks', ['webhooks'], ':', ['write']),
  ...crud('webhooks', ['webhooks'], '.', ['write']),
  ...crud('usage', ['usage'], ':', ['read']),
  ...crud('usage', ['usage'], '.', ['read']),
  // "interviews" names sessions and agent profiles (interviewers) together.
  'interviews.read': ['sessions:read', 'interviewers:read'],
  'interviews.write': ['sessions:write', 'interviewers:write'],
  'interviews.delete': ['sessions:delete', 'interviewers:delete'],
} as Record<string, readonly Scope[]>;

/** Every name, in any form, that grants a canonical scope (for messages and documentation). */
export function namesGranting(scope: Scope): string[] {
  return Object.entries(SCOPE_ALIASES)
    .filter(([, scopes]) => scopes.includes(scope))
    .map(([name]) => name);
}

export class UnknownScopeError extends Error {
  constructor(readonly names: string[]) {
    super(`unknown scope${names.length > 1 ? 's' : ''}: ${names.join(', ')}`);
  }
}

/** Canonical scopes granted by a list of names in any form; `all` grants every scope. */
export function resolveScopes(names: readonly string[]): Scope[] {
  const granted = new Set<Scope>();
  const unknown: string[] = [];
  for (const raw of names.map((name) => name.trim().toLowerCase()).filter(Boolean)) {
    if (raw === 'all' || raw === '*') SCOPES.forEach((scope) => granted.add(scope));
    else if (SCOPE_ALIASES[raw]) SCOPE_ALIASES[raw].forEach((scope) => granted.add(scope));
    else unknown.push(raw);
  }
  if (unknown.length > 0) throw new UnknownScopeError(unknown);
  return SCOPES.filter((scope) => granted.has(scope));
}
