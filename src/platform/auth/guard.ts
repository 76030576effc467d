import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenError, NotFoundError, PaymentRequiredError, ValidationError } from '../../web/errors.js';
import type { Access, Principal } from '../access.js';
import type { Db } from '../db/database.js';
import type { Metering } from '../metering.js';
import { isPaid, rateLimitOf, type Plan, type PlanSettings } from '../plans.js';
import { namesGranting, SCOPES } from '../scopes.js';
import { memberWorkspace } from '../store/users.js';
import { authenticate, type AuthOutcome } from './authenticate.js';
import { refuseCrossSite } from './csrf.js';
import type { Bucket, Limiter } from './rate-limit.js';
import type { Revocations } from './revocations.js';

interface GuardSettings extends PlanSettings {
  RATE_LIMIT_ANONYMOUS: number;
  RATE_LIMIT_SIGNED_IN: number;
}

export interface GuardDeps {
  revocations: Revocations;
  db: Db;
  limiter: Limiter;
  metering: Metering;
  settings: GuardSettings;
  publicPrefixes: string[];
}

const isApi = (url: string) => /^\/api(?:[/?]|$)/.test(url);

// A request that matched no route (404) is public; matched routes always declare their access.
const accessOf = (request: FastifyRequest): Access => request.routeOptions.config.access ?? { auth: 'none' };

function bucketOf(outcome: AuthOutcome, request: FastifyRequest, settings: GuardSettings): Bucket {
  if (outcome.kind === 'key') return { key: `key:${outcome.principal.keyId}`, max: rateLimitOf(settings, outcome.principal.plan) };
  if (outcome.kind === 'user') return { key: `user:${outcome.user.id}`, max: settings.RATE_LIMIT_SIGNED_IN };
  return { key: `ip:${request.ip}`, max: settings.RATE_LIMIT_ANONYMOUS };
}

function authorizeKey(principal: Principal, access: Access): void {
  if (access.scope && !principal.scopes.includes(access.scope)) {
    throw new ForbiddenError(`API key lacks the scope ${access.scope} (granted by any of: ${namesGranting(access.scope).join(', ')})`);
  }
  if (access.paidPlan && !isPaid(principal.plan)) {
    throw new PaymentRequiredError(`this endpoint needs a paid plan; workspace ${principal.workspaceSlug} is on the free plan`);
  }
}

function accountSlugOf(request: FastifyRequest): unknown {
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.accountSlug;
  if (fromQuery !== undefined) return fromQuery;
  const body = request.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).accountSlug : undefined;
}

/** The workspace a signed-in user picked with accountSlug; non-members see the same 404 as a missing workspace. */
async function memberPrincipal(db: Db, request: FastifyRequest, userId: string): Promise<Principal> {
  const slug = accountSlugOf(request);
  if (typeof slug !== 'string' || slug === '') {
    throw ValidationError.field(['accountSlug'], 'required with session authentication');
  }
  const workspace = await memberWorkspace(db, userId, slug);
  if (!workspace) throw new NotFoundError(`workspace ${slug} not found`);
  return { workspaceId: workspace.id, workspaceSlug: workspace.slug, plan: workspace.plan as Plan, userId, scopes: SCOPES };
}

/**
 * The one gate of /api: authenticate, rate-limit (even refused callers, by IP), refuse, authorize
 * and check the plan in onRequest, before the body is read; then, once the body is parsed, resolve a
 * signed-in user's workspace and check the meter, still before validation.
 */
export function installGuard(app: FastifyInstance, deps: GuardDeps): void {
  const outcomes = new WeakMap<FastifyRequest, AuthOutcome>();
  const watches = new WeakMap<FastifyRequest, () => void>();

  app.addHook('onRoute', (route) => {
    if (!isApi(route.url) || route.config?.access) return;
    if (deps.publicPrefixes.some((prefix) => route.url.startsWith(prefix))) {
      route.config = { ...route.config, access: { auth: 'none' } };
      return;
    }
    throw new Error(`route ${String(route.method)} ${route.url} must declare config.access`);
  });

  app.addHook('onRequest', async (request, reply) => {
    if (!isApi(request.url)) return;
    const access = accessOf(request);
    const outcome = await authenticate(deps.db, request, access);
    outcomes.set(request, outcome);
    await deps.limiter(request, reply, bucketOf(outcome, request, deps.settings));
    if (outcome.kind === 'refused') throw outcome.error;
    if (outcome.kind === 'user') refuseCrossSite(request);
    if (outcome.kind === 'key') {
      authorizeKey(outcome.principal, access);
      request.principal = outcome.principal;
      const keyId = outcome.principal.keyId!;
      const watch = deps.revocations.watch(keyId);
      request.keyRevoked = watch.signal;
      watches.set(request, () => deps.revocations.release(keyId, watch));
    }
  });

  // Answered, or the client went away: the request no longer needs to hear of a revocation.
  const unwatch = async (request: FastifyRequest) => {
    watches.get(request)?.();
    watches.delete(request);
  };
  app.addHook('onResponse', unwatch);
  app.addHook('onRequestAbort', unwatch);

  app.addHook('preValidation', async (request) => {
    if (!isApi(request.url)) return;
    const outcome = outcomes.get(request);
    if (outcome?.kind === 'user') request.principal = await memberPrincipal(deps.db, request, outcome.user.id);
    // A key reaches its own workspace only; naming another one is answered like a workspace that does not exist.
    const slug = accountSlugOf(request);
    if (outcome?.kind === 'key' && typeof slug === 'string' && slug !== '' && slug !== outcome.principal.workspaceSlug) {
      throw new NotFoundError(`workspace ${slug} not found`);
    }
    const { meter } = accessOf(request);
    if (meter && request.principal) await deps.metering.check(request.principal, meter);
  });
}
