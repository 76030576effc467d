import type { FastifyBaseLogger } from 'fastify';
import type { PlatformConfig } from '../config.js';
import type { Db } from '../db/database.js';
import { smtpMailer } from '../mail/smtp.js';
import type { OutboxHandler } from './delivery.js';
import { OutboxWorker } from './worker.js';

/** The kinds whose handlers the features bring; emails are the platform's own. */
export type FeatureHandlers = Partial<Record<'webhook' | 'resume', OutboxHandler>>;

export interface RunningOutbox {
  stop(): Promise<void>;
}

/** At most this long for deliveries under way when the service stops; past it they are aborted and retried later. */
const STOP_GRACE_MS = 5000;

/** Starts this process's outbox worker. Without SMTP_URL, emails are not claimed: they wait in the outbox for the CLI. */
export function startOutboxWorker(db: Db, config: PlatformConfig, handlers: FeatureHandlers, log: FastifyBaseLogger): RunningOutbox {
  const mailer = config.SMTP_URL ? smtpMailer(config.SMTP_URL, config.MAIL_FROM) : undefined;
  const worker = new OutboxWorker(
    db,
    { ...handlers, ...(mailer ? { email: mailer.send } : {}) },
    {
      pollMs: config.OUTBOX_POLL_MS,
      leaseMs: config.OUTBOX_LEASE_MS,
      concurrency: config.OUTBOX_CONCURRENCY,
      backoff: { baseMs: config.OUTBOX_BACKOFF_BASE_MS, maxMs: config.OUTBOX_BACKOFF_MAX_MS },
    },
    log,
  );
  worker.start();
  return {
    stop: async () => {
      await worker.stop(Math.min(STOP_GRACE_MS, config.OUTBOX_LEASE_MS));
      mailer?.close();
    },
  };
}
