import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { outboxAttempts, outboxMessages, type Db } from '../../platform/index.js';
import type { Pagination } from '../../web/pagination.js';
import { ownedRows } from '../shared/owned-rows.js';
import { pageOf } from '../shared/paging.js';
import { present } from '../shared/present.js';
import type { deliveryItem, deliveryListQuery, webhookCreate, webhookCreated, webhookItem } from './shapes.js';
import { newSecret } from './signature.js';
import { webhookEndpoints } from './table.js';

type Create = z.output<typeof webhookCreate>;
type Endpoint = z.output<typeof webhookItem>;
type DeliveryQuery = z.output<typeof deliveryListQuery> & Pagination;
type Delivery = z.output<typeof deliveryItem>;
type Status = Delivery['status'];

/** What a deleted endpoint's undelivered messages end with. */
const DELETED = 'endpoint deleted';

/** An endpoint as every answer but the create's shows it: never its secret. */
function withoutSecret(row: typeof webhookEndpoints.$inferSelect): Endpoint {
  const { secret: _secret, ...endpoint } = present(row);
  return endpoint;
}

const ofEndpoint = (endpointId: string) => and(eq(outboxMessages.kind, 'webhook'), eq(outboxMessages.target_id, endpointId));

export function webhookStore(db: Db) {
  async function find(workspaceId: string, id: string) {
    const [row] = await db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.workspace_id, workspaceId), eq(webhookEndpoints.id, id)));
    return row;
  }

  /** The attempts of these messages, by message id, in order. */
  async function attemptsOf(messageIds: string[]) {
    const rows = messageIds.length
      ? await db
          .select()
          .from(outboxAttempts)
          .where(inArray(outboxAttempts.message_id, messageIds))
          .orderBy(asc(outboxAttempts.message_id), asc(outboxAttempts.attempt))
      : [];
    const byMessage = new Map<string, Delivery['attempt_log']>();
    for (const { message_id, attempt, started_at, duration_ms, outcome, status_code, error } of rows) {
      const log = byMessage.get(message_id) ?? [];
      log.push({
        attempt,
        started_at: started_at.toISOString(),
        duration_ms,
        outcome: outcome as Delivery['attempt_log'][number]['outcome'],
        status_code,
        error,
      });
      byMessage.set(message_id, log);
    }
    return byMessage;
  }

  return {
    async create(workspaceId: string, body: Create): Promise<z.output<typeof webhookCreated>> {
      const [row] = await db
        .insert(webhookEndpoints)
        .values({ ...body, secret: newSecret(), workspace_id: workspaceId })
        .returning();
      return { ...withoutSecret(row), secret: row.secret };
    },
    async list(workspaceId: string, pagination: Pagination) {
      const where = eq(webhookEndpoints.workspace_id, workspaceId);
      const { rows, total } = await pageOf(
        db,
        webhookEndpoints,
        where,
        [desc(webhookEndpoints.created_at), desc(webhookEndpoints.id)],
        pagination,
      );
      return { items: rows.map(withoutSecret), total };
    },
    async get(workspaceId: string, id: string): Promise<Endpoint | undefined> {
      const row = await find(workspaceId, id);
      return row && withoutSecret(row);
    },
    /**
     * Deletes the endpoint; its undelivered messages end `failed` in the same transaction, also one a
     * worker is sending at that instant (the worker moves on only messages still pending).
     */
    async remove(workspaceId: string, id: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        if (!(await ownedRows(tx, webhookEndpoints, 'updated_at').remove(workspaceId, id))) return false;
        await tx
          .update(outboxMessages)
          .set({ status: 'failed', last_error: DELETED })
          .where(and(ofEndpoint(id), eq(outboxMessages.status, 'pending')));
        return true;
      });
    },
    /** The endpoint's deliveries, newest first, each with its attempts; undefined when there is no such endpoint. */
    async deliveries(workspaceId: string, endpointId: string, query: DeliveryQuery) {
      if (!(await find(workspaceId, endpointId))) return undefined;
      const where = and(
        ofEndpoint(endpointId),
        eq(outboxMessages.workspace_id, workspaceId),
        query.status ? eq(outboxMessages.status, query.status) : undefined,
      );
      const { rows, total } = await pageOf(db, outboxMessages, where, [desc(outboxMessages.created_at), desc(outboxMessages.id)], query);
      const attempts = await attemptsOf(rows.map((row) => row.id));
      const items: Delivery[] = rows.map((row) => ({
        id: row.id,
        event_id: String(row.payload.id),
        type: row.topic,
        status: row.status as Status,
        attempts: row.attempts,
        last_status_code: row.last_status_code,
        last_error: row.last_error,
        created_at: row.created_at.toISOString(),
        delivered_at: row.delivered_at?.toISOString() ?? null,
        next_attempt_at: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
        attempt_log: attempts.get(row.id) ?? [],
      }));
      return { items, total };
    },
  };
}
