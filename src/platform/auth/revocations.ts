import { UnauthenticatedError } from '../../web/errors.js';

/**
 * How long a revoked key is remembered: longer than the moment between a request reading its key
 * (not yet revoked) and registering here, during which the revocation's notice may already pass.
 */
const REMEMBERED_MS = 60_000;

/**
 * The in-flight requests of each API key in this process, so that revoking a key ends them at once:
 * each holds a signal that is aborted with a 401 as its reason. Every node hears of a revocation
 * made on any other (src/platform/broadcast/).
 */
export class Revocations {
  private readonly inFlight = new Map<string, Set<AbortController>>();
  /** Keys revoked lately, oldest first, with when. */
  private readonly recent = new Map<string, number>();

  /** A signal for one request made with the key; call `release` when the request is answered. Throws for a key just revoked. */
  watch(keyId: string): AbortController {
    if (this.recent.has(keyId)) throw new UnauthenticatedError('API key has been revoked');
    const controller = new AbortController();
    const set = this.inFlight.get(keyId) ?? new Set();
    set.add(controller);
    this.inFlight.set(keyId, set);
    return controller;
  }

  release(keyId: string, controller: AbortController): void {
    const set = this.inFlight.get(keyId);
    set?.delete(controller);
    if (set?.size === 0) this.inFlight.delete(keyId);
  }

  /** The keys of the requests in flight now. */
  keysInFlight(): string[] {
    return [...this.inFlight.keys()];
  }

  revoked(keyId: string): void {
    const now = Date.now();
    this.recent.delete(keyId);
    this.recent.set(keyId, now);
    for (const [id, at] of this.recent) {
      if (now - at < REMEMBERED_MS) break;
      this.recent.delete(id);
    }
    const reason = new UnauthenticatedError('API key has been revoked');
    for (const controller of this.inFlight.get(keyId) ?? []) controller.abort(reason);
    this.inFlight.delete(keyId);
  }
}
