import type { OutboxKind } from './enqueue.js';

/** A message the worker holds the claim of, as its handler sees it. */
export interface ClaimedMessage {
  id: string;
  workspaceId: string | null;
  kind: OutboxKind;
  topic: string;
  targetId: string | null;
  payload: Record<string, unknown>;
  /** 1-based: this attempt. */
  attempt: number;
}

/** Thrown by a handler: retried with backoff unless permanent; statusCode is recorded. */
export class DeliveryFailure extends Error {
  readonly statusCode?: number;
  readonly permanent: boolean;

  constructor(message: string, options: { statusCode?: number; permanent?: boolean } = {}) {
    super(message);
    this.name = 'DeliveryFailure';
    this.statusCode = options.statusCode;
    this.permanent = options.permanent ?? false;
  }
}

/**
 * Delivers one message. Resolving means delivered; throwing means this attempt failed. The signal
 * fires before the claim's lease ends: past it another process may claim the message again.
 */
export type OutboxHandler = (message: ClaimedMessage, signal: AbortSignal) => Promise<{ statusCode?: number } | void>;
