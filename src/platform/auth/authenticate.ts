import type {} from '@fastify/cookie';
import type { FastifyRequest } from 'fastify';
import { UnauthenticatedError } from '../../web/errors.js';
import type { Access, Principal } from '../access.js';
import { KEY_PATTERN } from '../crypto.js';
import type { Db } from '../db/database.js';
import type { Plan } from '../plans.js';
import { SCOPES, type Scope } from '../scopes.js';
import { findApiKey, touchApiKey } from '../store/api-keys.js';
import { findLoginSession } from '../store/login-sessions.js';
import type { UserRow } from '../store/users.js';

export const SESSION_COOKIE = 'session';

export type AuthOutcome =
  | { kind: 'key'; principal: Principal }
  | { kind: 'user'; user: UserRow }
  | { kind: 'anonymous' }
  | { kind: 'refused'; error: UnauthenticatedError };

const refused = (message: string): AuthOutcome => ({ kind: 'refused', error: new UnauthenticatedError(message) });

/** "Last used" is for people reading the key list: a minute's precision spares a write on every request. */
const LAST_USED_PRECISION_MS = 60_000;

async function byKey(db: Db, header: string | string[]): Promise<AuthOutcome> {
  if (typeof header !== 'string' || !KEY_PATTERN.test(header))
    return refused('malformed API key: expected svc_live_ followed by at least 32 letters and digits');
  const found = await findApiKey(db, header);
  if (!found) return refused('invalid API key');
  if (found.key.revokedAt) return refused('API key has been revoked');
  const { key, workspace } = found;
  const now = new Date();
  if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= LAST_USED_PRECISION_MS) await touchApiKey(db, key.id, now);
  return {
    kind: 'key',
    principal: {
      workspaceId: workspace.id,
      workspaceSlug: workspace.slug,
      plan: workspace.plan as Plan,
      keyId: key.id,
      scopes: key.scopes.filter((s): s is Scope => (SCOPES as readonly string[]).includes(s)),
    },
  };
}

async function byCookie(db: Db, request: FastifyRequest, raw: string): Promise<AuthOutcome> {
  const unsigned = request.unsignCookie(raw);
  const user = unsigned.valid && unsigned.value ? await findLoginSession(db, unsigned.value) : undefined;
  return user ? { kind: 'user', user } : refused('session expired or invalid: sign in again');
}

/** Establishes who calls; does not throw, so that a refused caller is still rate-limited before the 401. */
export async function authenticate(db: Db, request: FastifyRequest, access: Access): Promise<AuthOutcome> {
  const key = request.headers['x-api-key'];
  const cookie = request.cookies[SESSION_COOKIE];
  switch (access.auth) {
    case 'none':
      return { kind: 'anonymous' };
    case 'optional-key':
      return key === undefined ? { kind: 'anonymous' } : byKey(db, key);
    case 'key':
      if (key !== undefined) return byKey(db, key);
      return refused(cookie ? 'this endpoint needs an x-api-key header; session cookies are not accepted' : 'missing x-api-key header');
    case 'key-or-cookie':
      if (key !== undefined) return byKey(db, key);
      return cookie ? byCookie(db, request, cookie) : refused('missing x-api-key header or session cookie');
    case 'cookie':
      if (key !== undefined) return refused('this endpoint needs a signed-in session; API keys are not accepted');
      return cookie ? byCookie(db, request, cookie) : refused('sign in first: no session cookie');
  }
}
