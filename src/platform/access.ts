import type { Meter, Plan } from './plans.js';
import type { Scope } from './scopes.js';

/**
 * How a route under /api is reached, declared in its fastify route `config.access`:
 * - `key`: an x-api-key is required; cookies are refused (401).
 * - `key-or-cookie`: a key, or a signed-in user choosing a workspace with `accountSlug`.
 * - `cookie`: a signed-in user only (the dashboard's own endpoints, such as key management).
 * - `optional-key`: anonymous allowed, but a key that is sent must be valid.
 * - `none`: public (sign-in, API documentation).
 * `paidPlan`: key callers on the free plan get 402. `meter`: refused with 402 past the allowance or
 * out of credits; the route reports success with `platform.meter`.
 */
export interface Access {
  auth: 'key' | 'key-or-cookie' | 'cookie' | 'optional-key' | 'none';
  scope?: Scope;
  paidPlan?: boolean;
  meter?: Meter;
}

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
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}
