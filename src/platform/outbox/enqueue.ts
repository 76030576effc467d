import { platformConfigSchema } from '../config.js';
import type { Db } from '../db/database.js';
import { outboxMessages } from './table.js';

export const OUTBOX_KINDS = ['email', 'webhook', 'resume'] as const;
export type OutboxKind = (typeof OUTBOX_KINDS)[number];

export interface NewOutboxMessage {
  workspaceId: string | null;
  kind: OutboxKind;
  topic: string;
  targetId?: string;
  payload: Record<string, unknown>;
  /** Default: OUTBOX_MAX_ATTEMPTS. */
  maxAttempts?: number;
}

/**
 * The process's OUTBOX_MAX_ATTEMPTS, set once by registerPlatform. A module setting rather than an
 * argument: features enqueue from inside their own transactions, where only the `Db` is at hand.
 */
let defaultMaxAttempts: number = platformConfigSchema.shape.OUTBOX_MAX_ATTEMPTS.parse(undefined);

export function setDefaultMaxAttempts(attempts: number): void {
  defaultMaxAttempts = attempts;
}

/** Writes messages to the outbox; pass the transaction that writes the data they are about. Returns their ids. */
export async function enqueue(db: Db, messages: NewOutboxMessage | NewOutboxMessage[]): Promise<string[]> {
  const list = Array.isArray(messages) ? messages : [messages];
  if (list.length === 0) return [];
  const rows = await db
    .insert(outboxMessages)
    .values(
      list.map((message) => ({
        workspace_id: message.workspaceId,
        kind: message.kind,
        topic: message.topic,
        target_id: message.targetId ?? null,
        payload: message.payload,
        max_attempts: message.maxAttempts ?? defaultMaxAttempts,
      })),
    )
    .returning({ id: outboxMessages.id });
  return rows.map((row) => row.id);
}
