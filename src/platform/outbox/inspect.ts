import { and, asc, count, desc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { mailMessageSchema } from '../mail/message.js';
import type { OutboxKind } from './enqueue.js';
import { outboxAttempts, outboxMessages } from './table.js';

export const OUTBOX_STATUSES = ['pending', 'delivered', 'failed'] as const;
type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

export interface OutboxFilter {
  kind?: OutboxKind;
  status?: OutboxStatus;
  workspaceId?: string;
}

type MessageRow = typeof outboxMessages.$inferSelect;

const LIST_LIMIT = 100;

/** Who or what the message goes to, in a few words: the address and subject of an email, else its target. */
function summary(row: MessageRow): string {
  const mail = mailMessageSchema.safeParse(row.payload);
  if (row.kind === 'email' && mail.success) return `to ${mail.data.to}: ${mail.data.subject}`;
  return row.target_id ? `target ${row.target_id}` : '';
}

function progress(row: MessageRow): string {
  const attempts = `${row.attempts}/${row.max_attempts} attempts`;
  if (row.status === 'delivered') return `${attempts}, delivered ${row.delivered_at?.toISOString()}`;
  if (row.status === 'failed') return `${attempts}, failed`;
  return `${attempts}, next ${row.next_attempt_at.toISOString()}`;
}

/** The newest messages matching the filter, one per line (tab-separated), for `outbox list`. */
export async function listOutbox(db: Db, filter: OutboxFilter): Promise<string> {
  const conditions: SQL[] = [];
  if (filter.kind) conditions.push(eq(outboxMessages.kind, filter.kind));
  if (filter.status) conditions.push(eq(outboxMessages.status, filter.status));
  if (filter.workspaceId) conditions.push(eq(outboxMessages.workspace_id, filter.workspaceId));
  const where = and(...conditions);
  const rows = await db
    .select()
    .from(outboxMessages)
    .where(where)
    .orderBy(desc(outboxMessages.created_at), desc(outboxMessages.id))
    .limit(LIST_LIMIT);
  if (rows.length === 0) return 'no outbox messages';
  const lines = rows.map((row) =>
    [row.id, row.kind, row.topic, row.status, progress(row), `created ${row.created_at.toISOString()}`, summary(row)].join('\t'),
  );
  const [{ total }] = await db.select({ total: count() }).from(outboxMessages).where(where);
  if (total > rows.length) lines.push(`(the newest ${rows.length} of ${total}; narrow with --kind, --status or --workspace)`);
  return lines.join('\n');
}

/** One message for `outbox show`: its state, its attempts, and for an email the recipient, subject and text part. */
export async function showOutbox(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db.select().from(outboxMessages).where(eq(outboxMessages.id, id));
  if (!row) return undefined;
  const attempts = await db.select().from(outboxAttempts).where(eq(outboxAttempts.message_id, id)).orderBy(asc(outboxAttempts.attempt));
  const field = (name: string, value: string) => `${name.padEnd(11)}${value}`;
  const lines = [
    field('id', row.id),
    field('kind', `${row.kind} (${row.topic})`),
    field('workspace', row.workspace_id ?? '-'),
    field('status', `${row.status}, ${progress(row)}`),
    field('created', row.created_at.toISOString()),
  ];
  if (row.target_id) lines.push(field('target', row.target_id));
  if (row.last_error) lines.push(field('last error', `${row.last_status_code ?? '-'} ${row.last_error}`));
  const mail = mailMessageSchema.safeParse(row.payload);
  if (row.kind === 'email' && mail.success) {
    lines.push(field('to', mail.data.to), field('subject', mail.data.subject));
    if (mail.data.calendar) lines.push(field('calendar', `${mail.data.calendar.filename} (${mail.data.calendar.method})`));
    lines.push('', mail.data.text);
  } else {
    lines.push('', JSON.stringify(row.payload, null, 2));
  }
  if (attempts.length > 0) {
    lines.push('', 'attempts:');
    for (const attempt of attempts)
      lines.push(
        [
          `  ${attempt.attempt}`,
          attempt.started_at.toISOString(),
          `${attempt.duration_ms} ms`,
          attempt.outcome,
          attempt.status_code ?? '-',
          attempt.error ?? '',
        ].join('\t'),
      );
  }
  return lines.join('\n');
}
