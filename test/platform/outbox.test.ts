import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/platform/db/open.js';
import { retryDelay } from '../../src/platform/outbox/backoff.js';
import {
  DeliveryFailure,
  enqueue,
  outboxAttempts,
  outboxMessages,
  type ClaimedMessage,
  type Db,
  type NewOutboxMessage,
  type OutboxHandler,
} from '../../src/platform/index.js';
import { buildTestApp, removeDir, type TestApp } from './support/app.js';
import { pgliteDriver, postgresDriver } from './support/drivers.js';

const SETTINGS = {
  OUTBOX_POLL_MS: '20',
  OUTBOX_BACKOFF_BASE_MS: '50',
  OUTBOX_BACKOFF_MAX_MS: '1000',
  OUTBOX_LEASE_MS: '1000',
  OUTBOX_MAX_ATTEMPTS: '5',
  OUTBOX_CONCURRENCY: '4',
};

type Behaviour = (message: ClaimedMessage, signal: AbortSignal) => Promise<{ statusCode?: number } | void>;

interface Call {
  id: string;
  attempt: number;
  at: number;
}

/** A webhook handler whose behaviour each test picks by topic, and which keeps every call. */
function scriptedHandler(): { handler: OutboxHandler; calls: Map<string, Call[]>; behave(topic: string, behaviour: Behaviour): void } {
  const behaviours = new Map<string, Behaviour>();
  const calls = new Map<string, Call[]>();
  const handler: OutboxHandler = async (message, signal) => {
    calls.set(message.topic, [...(calls.get(message.topic) ?? []), { id: message.id, attempt: message.attempt, at: Date.now() }]);
    const behaviour = behaviours.get(message.topic);
    if (!behaviour) throw new Error(`no behaviour for topic ${message.topic}`);
    return behaviour(message, signal);
  };
  return { handler, calls, behave: (topic, behaviour) => behaviours.set(topic, behaviour) };
}

async function messageOf(db: Db, id: string) {
  const [row] = await db.select().from(outboxMessages).where(eq(outboxMessages.id, id));
  return row;
}

async function attemptsOf(db: Db, id: string) {
  return db.select().from(outboxAttempts).where(eq(outboxAttempts.message_id, id)).orderBy(asc(outboxAttempts.attempt));
}

/** Waits until the message is in `status`; a timeout names the state it was left in, with its attempts. */
async function settled(db: Db, id: string, status: 'delivered' | 'failed', timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await messageOf(db, id);
    if (row?.status === status) return row;
    if (Date.now() > deadline)
      throw new Error(
        `message ${id} is not ${status} after ${timeoutMs} ms: ${JSON.stringify({ row, attempts: await attemptsOf(db, id) })}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const webhook = (topic: string, extra: Partial<NewOutboxMessage> = {}): NewOutboxMessage => ({
  workspaceId: null,
  kind: 'webhook',
  topic,
  payload: { topic },
  ...extra,
});

describe.each([pgliteDriver(), postgresDriver()])('outbox worker on $name', (driver) => {
  let t: TestApp;
  let db: Db;
  let env: Record<string, string>;
  let closed = false;
  const script = scriptedHandler();

  beforeAll(async () => {
    env = await driver.env();
    t = await buildTestApp({ ...env, ...SETTINGS });
    db = t.platform.database.db;
    t.platform.startOutbox({ webhook: script.handler });
  });
  afterAll(async () => {
    if (!closed) await t?.close();
    if (t) removeDir(t.dataDir);
    await driver.stop();
  });

  it('delivers a message once and records the attempt', async () => {
    script.behave('once', async () => ({ statusCode: 202 }));
    const [id] = await enqueue(db, webhook('once'));
    const row = await settled(db, id, 'delivered');
    await pause(200);
    expect(script.calls.get('once')).toEqual([expect.objectContaining({ id, attempt: 1 })]);
    expect(row).toMatchObject({ attempts: 1, max_attempts: 5, last_status_code: 202, last_error: null, claimed_until: null });
    expect(row.delivered_at).toBeInstanceOf(Date);
    expect(await attemptsOf(db, id)).toEqual([
      expect.objectContaining({ attempt: 1, outcome: 'delivered', status_code: 202, error: null }),
    ]);
  });

  it('claims only the kinds it has a handler for', async () => {
    const [id] = await enqueue(db, { workspaceId: null, kind: 'resume', topic: 'no-handler', payload: {} });
    await pause(300);
    expect(await messageOf(db, id)).toMatchObject({ status: 'pending', attempts: 0, claimed_by: null });
  });

  it('retries a failing delivery with exponential backoff until it succeeds', async () => {
    script.behave('flaky', async (message) => {
      if (message.attempt < 3) throw new DeliveryFailure(`receiver answered 503 (attempt ${message.attempt})`, { statusCode: 503 });
      return { statusCode: 200 };
    });
    const [id] = await enqueue(db, webhook('flaky'));
    const row = await settled(db, id, 'delivered');
    await pause(200);
    const attempts = await attemptsOf(db, id);
    expect(attempts.map((a) => [a.attempt, a.outcome, a.status_code])).toEqual([
      [1, 'retry', 503],
      [2, 'retry', 503],
      [3, 'delivered', 200],
    ]);
    expect(attempts[0].error).toBe('receiver answered 503 (attempt 1)');
    expect(script.calls.get('flaky')?.map((c) => c.attempt)).toEqual([1, 2, 3]);
    expect(row).toMatchObject({ attempts: 3, last_status_code: 200, last_error: null });
    // Base 50 ms: the second attempt waits at least 50 ms after the first ended, the third at least 100 ms after the second.
    const gap = (n: number) => attempts[n].started_at.getTime() - (attempts[n - 1].started_at.getTime() + attempts[n - 1].duration_ms);
    expect(gap(1)).toBeGreaterThanOrEqual(50);
    expect(gap(2)).toBeGreaterThanOrEqual(100);
  });

  it('stops at a permanent failure', async () => {
    script.behave('gone', async () => {
      throw new DeliveryFailure('receiver answered 410', { statusCode: 410, permanent: true });
    });
    const [id] = await enqueue(db, webhook('gone'));
    const row = await settled(db, id, 'failed');
    await pause(300);
    expect(script.calls.get('gone')).toHaveLength(1);
    expect(row).toMatchObject({ attempts: 1, last_status_code: 410, last_error: 'receiver answered 410' });
    expect((await attemptsOf(db, id)).map((a) => a.outcome)).toEqual(['failed']);
  });

  it('ends failed after its last attempt, and a handler that throws anything never stops the loop', async () => {
    script.behave('broken', async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'url')");
    });
    script.behave('after-broken', async () => undefined);
    const [broken] = await enqueue(db, webhook('broken', { maxAttempts: 3 }));
    const row = await settled(db, broken, 'failed');
    expect(row).toMatchObject({
      attempts: 3,
      max_attempts: 3,
      last_status_code: null,
      last_error: "Cannot read properties of undefined (reading 'url')",
    });
    expect((await attemptsOf(db, broken)).map((a) => a.outcome)).toEqual(['retry', 'retry', 'failed']);
    await pause(300);
    expect(script.calls.get('broken')).toHaveLength(3);
    const [after] = await enqueue(db, webhook('after-broken'));
    await settled(db, after, 'delivered');
  });

  it('aborts a handler before its lease ends, records the attempt and retries', async () => {
    let abortedAfter: number | undefined;
    script.behave('hangs', (message, signal) => {
      if (message.attempt > 1) return Promise.resolve({ statusCode: 200 });
      const started = Date.now();
      // A handler that honours the signal; the worker gives up on one that does not at the same moment.
      return new Promise((_, reject) =>
        signal.addEventListener('abort', () => {
          abortedAfter = Date.now() - started;
          reject(signal.reason);
        }),
      );
    });
    const [id] = await enqueue(db, webhook('hangs'));
    await settled(db, id, 'delivered');
    // OUTBOX_LEASE_MS is 1000: the signal fires at 80 % of it.
    expect(abortedAfter).toBeGreaterThanOrEqual(790);
    expect(abortedAfter).toBeLessThan(1000);
    const attempts = await attemptsOf(db, id);
    expect(attempts.map((a) => [a.attempt, a.outcome])).toEqual([
      [1, 'retry'],
      [2, 'delivered'],
    ]);
    expect(attempts[0].error).toBe('no answer within 800 ms');
  });

  it('delivers a message whose claim expired with its dead worker', async () => {
    script.behave('orphan', async () => ({ statusCode: 200 }));
    // Enqueued and claimed by a worker that then "died", in one transaction, so that no live worker sees it unclaimed first.
    const id = await db.transaction(async (tx) => {
      const [created] = await enqueue(tx, webhook('orphan'));
      await tx
        .update(outboxMessages)
        .set({ claimed_by: 'dead-worker', claimed_until: sql`now() + interval '600 milliseconds'`, attempts: 1 })
        .where(eq(outboxMessages.id, created));
      return created;
    });
    const { claimed_until: leaseEnd } = await messageOf(db, id);
    const row = await settled(db, id, 'delivered');
    const [call] = script.calls.get('orphan') ?? [];
    expect(call).toMatchObject({ id, attempt: 2 });
    expect(call.at).toBeGreaterThanOrEqual(leaseEnd!.getTime());
    expect(row).toMatchObject({ attempts: 2 });
    expect(row.claimed_by).not.toBe('dead-worker');
    expect((await attemptsOf(db, id)).map((a) => [a.attempt, a.outcome])).toEqual([[2, 'delivered']]);
  });

  it('fails a message whose last attempt died with its worker, rather than going past max attempts', async () => {
    script.behave('poison', async () => undefined);
    const id = await db.transaction(async (tx) => {
      const [created] = await enqueue(tx, webhook('poison', { maxAttempts: 2 }));
      await tx
        .update(outboxMessages)
        .set({ claimed_by: 'dead-worker', claimed_until: sql`now() + interval '300 milliseconds'`, attempts: 2 })
        .where(eq(outboxMessages.id, created));
      return created;
    });
    const row = await settled(db, id, 'failed');
    expect(row).toMatchObject({ attempts: 2, claimed_until: null });
    expect(row.last_error).toMatch(/never reported back/);
    expect(script.calls.get('poison')).toBeUndefined();
  });

  it('finishes the delivery under way before the app closes', async () => {
    let finished = false;
    script.behave('slow', async () => {
      await pause(400);
      finished = true;
    });
    const [id] = await enqueue(db, webhook('slow'));
    const deadline = Date.now() + 5000;
    while (!script.calls.get('slow') && Date.now() < deadline) await pause(10);
    expect(script.calls.get('slow'), 'the slow delivery never started').toHaveLength(1);
    closed = true;
    await t.close();
    expect(finished).toBe(true);
    const reopened = await openDatabase({ dataDir: t.dataDir, databaseUrl: env.DATABASE_URL });
    try {
      expect(await messageOf(reopened.db, id)).toMatchObject({ status: 'delivered', attempts: 1 });
      expect((await attemptsOf(reopened.db, id)).map((a) => a.outcome)).toEqual(['delivered']);
    } finally {
      await reopened.close();
    }
  });
});

describe('two service processes on one PostgreSQL', () => {
  const postgres = postgresDriver();
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) {
      await app.close();
      removeDir(app.dataDir);
    }
    await postgres.stop();
  });

  it('deliver each of 200 messages exactly once', async () => {
    const env = { ...(await postgres.env()), ...SETTINGS };
    const deliveries: Array<{ worker: string; id: string }> = [];
    for (const worker of ['first', 'second']) {
      const app = await buildTestApp(env);
      apps.push(app);
      app.platform.startOutbox({
        webhook: async (message) => {
          deliveries.push({ worker, id: message.id });
          // Long enough that both workers hold claims at the same time.
          await pause(2 + Math.random() * 5);
        },
      });
    }
    const db = apps[0].platform.database.db;
    const ids = await enqueue(
      db,
      Array.from({ length: 200 }, (_, n) => webhook('race', { payload: { n } })),
    );
    const deadline = Date.now() + 30_000;
    for (;;) {
      const [{ delivered }] = await db
        .select({ delivered: sql<number>`count(*)::int` })
        .from(outboxMessages)
        .where(eq(outboxMessages.status, 'delivered'));
      if (delivered === 200) break;
      if (Date.now() > deadline) throw new Error(`only ${delivered} of 200 delivered after 30 s; ${deliveries.length} handler calls`);
      await pause(50);
    }
    await pause(300);
    const perId = new Map<string, number>();
    for (const delivery of deliveries) perId.set(delivery.id, (perId.get(delivery.id) ?? 0) + 1);
    expect([...perId.keys()].sort()).toEqual([...ids].sort());
    expect([...perId.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    expect(deliveries.filter((d) => d.worker === 'first').length, 'the first worker delivered none').toBeGreaterThan(0);
    expect(deliveries.filter((d) => d.worker === 'second').length, 'the second worker delivered none').toBeGreaterThan(0);
    const attempts = await db.select().from(outboxAttempts);
    expect(attempts).toHaveLength(200);
    expect(attempts.every((a) => a.attempt === 1 && a.outcome === 'delivered')).toBe(true);
  });

  it('keep polling through database errors', async () => {
    const db = apps[0].platform.database.db;
    // Every claim fails while the table is away; an error escaping the loop would stop it (or fail the run as unhandled).
    await db.execute(sql`ALTER TABLE outbox_messages RENAME TO outbox_messages_away`);
    await pause(300);
    await db.execute(sql`ALTER TABLE outbox_messages_away RENAME TO outbox_messages`);
    const [id] = await enqueue(db, webhook('after-the-error'));
    await settled(db, id, 'delivered');
  });
});

describe('retry delays', () => {
  const backoff = { baseMs: 50, maxMs: 300 };
  it('double from the base up to the cap, plus at most 10 %', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelay(attempt, backoff, () => 0))).toEqual([50, 100, 200, 300, 300]);
    expect([1, 2, 3, 4].map((attempt) => retryDelay(attempt, backoff, () => 1))).toEqual([55, 110, 220, 330]);
  });
});
