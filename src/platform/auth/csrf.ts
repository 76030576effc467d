import type { FastifyRequest } from 'fastify';
import { ForbiddenError } from '../../web/errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origin a browser says the request comes from: Origin, else the Referer's origin. */
function claimedOrigin(request: FastifyRequest): string | undefined {
  const { origin, referer } = request.headers;
  const source = typeof origin === 'string' ? origin : referer;
  if (source === undefined) return undefined;
  try {
    return new URL(source).origin;
  } catch {
    return 'an unreadable origin';
  }
}

/**
 * A state-changing request that rides on the session cookie must come from a page of this service:
 * its Origin (or Referer) must be the service's own origin, as the Host header and, behind a trusted
 * proxy, X-Forwarded-Proto/-Host name it. SameSite=Lax already keeps the cookie off cross-site posts;
 * this also stops a sibling subdomain, which SameSite counts as the same site. Keys are not cookies:
 * key-authenticated requests never come here.
 */
export function refuseCrossSite(request: FastifyRequest): void {
  if (SAFE_METHODS.has(request.method)) return;
  const own = new URL(`${request.protocol}://${request.host}`).origin;
  const claimed = claimedOrigin(request);
  if (claimed === undefined) throw new ForbiddenError('a signed-in request that changes data must carry an Origin or Referer header');
  if (claimed !== own) throw new ForbiddenError(`cross-site request refused: it comes from ${claimed}, not ${own}`);
}
