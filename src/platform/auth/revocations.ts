import { UnauthenticatedError } from '../../web/errors.js';

/**
 * The in-flight requests of each API key, so that revoking a key ends them at once: each holds a
 * signal that is aborted with a 401 as its reason. Within this process; several service nodes
 * would need the revocation broadcast to each.
 */
export class Revocations {
  private readonly inFlight = new Map<string, Set<AbortController>>();

  /** A signal for one request made with the key; call `release` when the request is answered. */
  watch(keyId: string): AbortController {
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

  revoked(keyId: string): void {
    const reason = new UnauthenticatedError('API key has been revoked');
    for (const controller of this.inFlight.get(keyId) ?? []) controller.abort(reason);
    this.inFlight.delete(keyId);
  }
}
