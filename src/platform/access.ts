import type { FastifyRequest } from 'fastify';
import { UnauthenticatedError } from '../web/errors.js';
import type { RouteAccess } from '../web/access.js';
import type { MonthlyCounter, Plan } from './plans.js';
import type { Scope } from './scopes.js';

/**
 * How a route under /api is reached, declared as `access` in its route declaration:
 * - `key`: an x-api-key is required; cookies are refused (401).
 * - `key-or-cookie`: a key, or a signed-in user choosing a workspace with `accountSlug`.
 * - `cookie`: a signed-in user only (the dashboard's own endpoints, such as key management).
 * - `optional-key`: anonymous allowed, but a key that is sent must be valid.
 * - `none`: public (sign-in, API documentation).
 * `paidPlan`: key callers on the free plan get 402. `meter`: refused with 402 past the allowance or
 * out of credits; the route reports success with `platform.meter`.
 */
declare module '../web/access.js' {
  interface RouteAccess {
    auth: 'key' | 'key-or-cookie' | 'cookie' | 'optional-key' | 'none';
    scope?: Scope;
    paidPlan?: boolean;
    // Only what the gate can refuse; code_executions is counted (per day, for the dashboard) and never limited.
    meter?: MonthlyCounter | 'credits';
  }
}
export type Access = RouteAccess;

/** Who is calling: a workspace reached with one of its keys, or through a member's session. */
export interface Principal {
  workspaceId: string;
  workspaceSlug: string;
  plan: Plan;
  keyId?: string;
  userId?: string;
  scopes: readonly Scope[];
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
    /** Aborted, with a 401 as its reason, when the API key of this request is revoked while it runs. */
    keyRevoked?: AbortSignal;
  }
}

/** The caller of a route that requires one: the gate has set it before any handler runs. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new UnauthenticatedError('this endpoint needs an API key or a signed-in session');
  return request.principal;
}
