import { randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { enqueue, type Db } from '../../platform/index.js';
import { webhookEndpoints } from './table.js';

/** Every event an endpoint can subscribe to (docs/webhooks.md). */
export const EVENT_TYPES = [
  'participant.created',
  'participant.updated',
  'session.created',
  'session.rescheduled',
  'session.started',
  'session.completed',
  'session.failed',
  'session.cancelled',
  'role.created',
  'round.created',
  'interviewer.created',
  'program.created',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Messages per insert: a bulk import to many endpoints stays far below PostgreSQL's 65 535 parameters per statement. */
const MESSAGES_PER_INSERT = 1000;

/** Subscribes an endpoint to every event, including kinds added after it was created. */
export const ALL_EVENTS = '*';

export interface ResourceEvent {
  workspaceId: string;
  type: EventType;
  /** The resource as the API answers it. */
  data: Record<string, unknown>;
  /** The participant's `external_id`, echoed in every payload that concerns a participant. */
  externalId: string | null;
}

/** What every endpoint receives for one event: the same `id` for all of them and across retries. */
export interface EventPayload extends Record<string, unknown> {
  id: string;
  type: EventType;
  created_at: string;
  workspace_id: string;
  external_id: string | null;
  data: Record<string, unknown>;
}

/**
 * In the caller's transaction: one outbox message (kind 'webhook', topic = type, targetId = endpoint
 * id) per endpoint of the workspace subscribed to `type`. Written with the data it is about, so a
 * rolled-back write publishes nothing and a committed one is delivered even after a crash.
 */
export function publishEvent(db: Db, event: ResourceEvent): Promise<void> {
  return publishEvents(db, [event]);
}

/** `publishEvent` for a batch (a bulk import): one read of the endpoints, and inserts of many messages each. */
export async function publishEvents(db: Db, events: ResourceEvent[]): Promise<void> {
  if (events.length === 0) return;
  const workspaceIds = [...new Set(events.map((event) => event.workspaceId))];
  const endpoints = await db
    .select({ id: webhookEndpoints.id, workspaceId: webhookEndpoints.workspace_id, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(inArray(webhookEndpoints.workspace_id, workspaceIds));
  if (endpoints.length === 0) return;
  const createdAt = new Date().toISOString();
  const messages = events.flatMap((event) => {
    const payload: EventPayload = {
      id: randomUUID(),
      type: event.type,
      created_at: createdAt,
      workspace_id: event.workspaceId,
      external_id: event.externalId,
      data: event.data,
    };
    return endpoints
      .filter((endpoint) => endpoint.workspaceId === event.workspaceId && subscribes(endpoint.events, event.type))
      .map((endpoint) => ({ workspaceId: event.workspaceId, kind: 'webhook' as const, topic: event.type, targetId: endpoint.id, payload }));
  });
  for (let start = 0; start < messages.length; start += MESSAGES_PER_INSERT)
    await enqueue(db, messages.slice(start, start + MESSAGES_PER_INSERT));
}

function subscribes(subscribed: string[], type: EventType): boolean {
  return subscribed.includes(type) || subscribed.includes(ALL_EVENTS);
}
