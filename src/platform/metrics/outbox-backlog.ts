import { count, eq } from 'drizzle-orm';
import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../db/database.js';
import { OUTBOX_KINDS } from '../outbox/enqueue.js';
import { outboxMessages } from '../outbox/table.js';

/**
 * The outbox's pending messages by kind, counted when Prometheus scrapes (one grouped COUNT on the
 * status index). Every node on a database reports the same figure: aggregate it with max, not sum.
 */
export function outboxBacklogGauge(db: Db, registry: Registry): void {
  new Gauge({
    name: 'code_runner_outbox_backlog',
    help: 'Outbox messages not yet delivered nor failed, by kind (the same on every node of a database)',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      try {
        const rows = await db
          .select({ kind: outboxMessages.kind, pending: count() })
          .from(outboxMessages)
          .where(eq(outboxMessages.status, 'pending'))
          .groupBy(outboxMessages.kind);
        for (const kind of OUTBOX_KINDS) this.set({ kind }, rows.find((row) => row.kind === kind)?.pending ?? 0);
      } catch {
        // The database is away: the series vanish for this scrape (Prometheus sees them absent), and /metrics still answers with the rest.
        this.reset();
      }
    },
  });
}
